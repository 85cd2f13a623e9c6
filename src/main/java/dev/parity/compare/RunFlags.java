package dev.parity.compare;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A run's check results: flags about the run as a whole and flags by cell.
 *
 * @param run flags about the whole run (banners)
 * @param cells flags by cell anchor, in the run's cell order; only cells with flags
 * appear
 */
public record RunFlags(List<Flag> run, Map<String, List<Flag>> cells) {

	public RunFlags {
		run = List.copyOf(run);
		Map<String, List<Flag>> copy = new LinkedHashMap<>();
		cells.forEach((anchor, flags) -> copy.put(anchor, List.copyOf(flags)));
		cells = Collections.unmodifiableMap(copy);
	}

	/** The flags of one cell; empty when it has none. */
	public List<Flag> forCell(String anchor) {
		return cells.getOrDefault(anchor, List.of());
	}

	/** Every flag, the run's first. */
	public Stream<Flag> all() {
		return Stream.concat(run.stream(), cells.values().stream().flatMap(List::stream));
	}

	/** These flags as carried into a comparison from one side. */
	RunFlags onSide(String side) {
		Map<String, List<Flag>> carried = new LinkedHashMap<>();
		cells.forEach((anchor, flags) -> carried.put(anchor, flags.stream().map(flag -> flag.onSide(side)).toList()));
		return new RunFlags(run.stream().map(flag -> flag.onSide(side)).toList(), carried);
	}

}
