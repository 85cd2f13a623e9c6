package dev.parity.site;

import java.util.ArrayList;
import dev.parity.compare.ThresholdDefaults;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import dev.parity.compare.Flag;
import dev.parity.compare.RunChecks;
import dev.parity.compare.RunFlags;
import dev.parity.run.Run;

import org.springframework.stereotype.Component;

/**
 * The run checks of a run, computed when shown with the thresholds in force.
 */
@Component
class RunFlagging {

	private final ThresholdDefaults defaults;

	RunFlagging(ThresholdDefaults defaults) {
		this.defaults = defaults;
	}

	/** Run-level flags, and cell-level flags by cell anchor. */
	record Flags(List<RunPage.PageFlag> run, Map<String, List<RunPage.PageFlag>> cells) {
	}

	Flags check(Run run) {
		RunFlags flags = RunChecks.check(run.document(), defaults.settings());
		Map<String, List<RunPage.PageFlag>> cells = new LinkedHashMap<>();
		flags.cells().forEach((anchor, list) -> cells.put(anchor, pageFlags(list)));
		return new Flags(pageFlags(flags.run()), cells);
	}

	/** The thresholds the checks use, as {@code name=value, …}. */
	String thresholds() {
		return defaults.settings()
			.asMap()
			.entrySet()
			.stream()
			.map(e -> e.getKey() + "=" + e.getValue())
			.collect(Collectors.joining(", "));
	}

	private static List<RunPage.PageFlag> pageFlags(List<Flag> flags) {
		List<RunPage.PageFlag> result = new ArrayList<>();
		for (Flag flag : flags) {
			result
				.add(new RunPage.PageFlag(flag.rule(), flag.shortForm(), flag.message(), flag.greys(), flag.metric()));
		}
		return result;
	}

}
