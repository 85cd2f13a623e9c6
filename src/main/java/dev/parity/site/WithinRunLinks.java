package dev.parity.site;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.parity.run.Cell;
import dev.parity.run.Params;
import dev.parity.run.Run;

/**
 * The comparisons within one run that its page links: for each grid parameter with 2 to
 * {@value Contenders#MAX} + 1 values, its first value (in the run's order) against each
 * of the others, matched on the other coordinates.
 *
 * @param param the grid parameter
 * @param baseline its first value
 * @param contenders its other values
 * @param path the comparison's path,
 * {@code run@param=first...run@param=second,run@param=third}
 */
public record WithinRunLinks(String param, String baseline, List<String> contenders, String path) {

	static List<WithinRunLinks> of(Run run) {
		Map<String, Set<String>> values = new LinkedHashMap<>();
		for (Cell cell : run.cells()) {
			cell.params()
				.values()
				.forEach((name, value) -> values.computeIfAbsent(name, n -> new LinkedHashSet<>())
					.add(Params.format(value)));
		}
		List<WithinRunLinks> links = new ArrayList<>();
		values.forEach((param, taken) -> {
			// A value with , or @ cannot be written in a comparison's path.
			if (taken.size() < 2 || taken.size() > Contenders.MAX + 1
					|| taken.stream().anyMatch(value -> value.contains(",") || value.contains("@"))) {
				return;
			}
			List<String> ordered = List.copyOf(taken);
			String id = run.id().value();
			String side = id + "@" + param + "=";
			links.add(new WithinRunLinks(param, ordered.get(0), ordered.subList(1, ordered.size()),
					side + ordered.get(0) + "..." + String.join(",",
							ordered.subList(1, ordered.size()).stream().map(value -> side + value).toList())));
		});
		return links;
	}

}
