package dev.parity.site;

import dev.parity.snapshots.ComparisonService;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Several contenders against one baseline, as written in URLs:
 * {@code baseline...c1,c2,c3} (each side may be a group of replicates or fix parameters,
 * as in a pairwise comparison). Each contender is compared with the baseline alone;
 * contenders are never compared with each other.
 *
 * @param baseline the baseline as written in the URL
 * @param pairs each contender's comparison with the baseline, in URL order
 */
record Contenders(String baseline, List<ComparisonService.Pair> pairs) {

	/** The most contenders one view takes: a table wider than this is read by nobody. */
	static final int MAX = 8;

	Contenders {
		pairs = List.copyOf(pairs);
	}

	/** Whether the path lists several contenders: a comma after the {@code ...}. */
	static boolean areSeveral(String path) {
		int dots = path.indexOf("...");
		return dots >= 0 && path.indexOf(',', dots + 3) >= 0;
	}

	/**
	 * Reads {@code baseline...c1,c2,…}.
	 * @throws Rejected naming the problem: more than {@link #MAX} contenders, an empty
	 * one, one listed twice
	 */
	static Contenders parse(String path) {
		int dots = path.indexOf("...");
		String baseline = path.substring(0, dots);
		String[] written = path.substring(dots + 3).split(",", -1);
		if (written.length > MAX) {
			throw new Rejected(written.length + " contenders: one comparison takes at most " + MAX
					+ " (compare the rest in another view)");
		}
		Map<String, Integer> seen = new LinkedHashMap<>();
		List<ComparisonService.Pair> pairs = new ArrayList<>();
		for (int i = 0; i < written.length; i++) {
			if (written[i].isBlank()) {
				throw new Rejected("contender " + (i + 1) + " of " + written.length
						+ " is empty: list run ids separated by single commas, e.g. /compare/ref...a,b,c");
			}
			ComparisonService.Pair pair = ComparisonService.Pair.parse(baseline + "..." + written[i]);
			Integer before = seen.put(contenderPath(pair), i + 1);
			if (before != null) {
				throw new Rejected("the contender " + contenderPath(pair) + " is listed twice (as contender " + before
						+ " and " + (i + 1) + "): list each contender once");
			}
			pairs.add(pair);
		}
		return new Contenders(pairs.get(0).path().substring(0, pairs.get(0).path().indexOf("...")), pairs);
	}

	/** The contender's side of a pair's path: {@code b1+b2} or {@code r@setting=off}. */
	static String contenderPath(ComparisonService.Pair pair) {
		String path = pair.path();
		return path.substring(path.indexOf("...") + 3);
	}

	/** {@code baseline...c1,c2,c3}, each side as the server writes it. */
	String path() {
		return baseline + "..." + String.join(",", pairs.stream().map(Contenders::contenderPath).toList());
	}

	/** A list of contenders the server refuses: a 400 with the reason. */
	static final class Rejected extends RuntimeException {

		Rejected(String message) {
			super(message);
		}

	}

}
