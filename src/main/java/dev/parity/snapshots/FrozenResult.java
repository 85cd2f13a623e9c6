package dev.parity.snapshots;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.parity.compare.ComparisonSnapshot;
import dev.parity.record.Publication;
import dev.parity.record.Publications;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What a publication freezes: one comparison ({@link One}, its snapshot), or several
 * contenders' comparisons with one baseline ({@link Several}, {@code {"baseline", "path",
 * "comparisons", "contenders": [each pairwise snapshot]}}). It writes itself as the body
 * a publication stores, gives the record the facts its guard rails check, and reads a
 * stored body back.
 */
public sealed interface FrozenResult {

	/** Each contender's comparison with the baseline, in order; one for {@link One}. */
	List<ComparisonSnapshot> pairwise();

	/**
	 * The body, the settings it was computed with and the rules' version as the record
	 * stores them, with the facts its guard rails check: the settings other than the
	 * defaults (the same for every contender, computed with the same settings), whether
	 * any cell of any comparison is comparable.
	 */
	default Publications.Frozen frozen(JsonMapper json) {
		ComparisonSnapshot first = pairwise().get(0);
		List<String> nonDefault = pairwise().stream()
			.map(ComparisonSnapshot::nonDefaultSettings)
			.filter(settings -> settings != null && !settings.isEmpty())
			.findFirst()
			.orElse(List.of())
			.stream()
			.map(FrozenResult::setting)
			.toList();
		boolean anyComparable = pairwise().stream()
			.flatMap(snapshot -> snapshot.headlines().stream())
			.anyMatch(headline -> headline.comparable() > 0);
		List<String> metrics = pairwise().stream()
			.flatMap(snapshot -> snapshot.metrics().stream())
			.map(ComparisonSnapshot.MetricInfo::metric)
			.distinct()
			.toList();
		return new Publications.Frozen(json.valueToTree(this), json.valueToTree(first.settings()), first.rulesVersion(),
				pairwise().size(), nonDefault, anyComparable, metrics);
	}

	/** One contender: the body is its comparison's snapshot. */
	record One(ComparisonSnapshot snapshot) implements FrozenResult {

		@JsonValue
		ComparisonSnapshot body() {
			return snapshot;
		}

		@Override
		public List<ComparisonSnapshot> pairwise() {
			return List.of(snapshot);
		}

	}

	/**
	 * Several contenders against one baseline.
	 *
	 * @param baseline the baseline's path (a run, or replicates a1+a2)
	 * @param path the comparison's path, {@code baseline...c1,c2}
	 * @param comparisons each pairwise comparison's API address, in order
	 * @param contenders each pairwise comparison, in order
	 */
	@JsonPropertyOrder({ "baseline", "path", "comparisons", "contenders" })
	record Several(String baseline, String path, List<String> comparisons,
			List<ComparisonSnapshot> contenders) implements FrozenResult {

		public Several {
			comparisons = List.copyOf(comparisons);
			contenders = List.copyOf(contenders);
		}

		/** Several contenders' snapshots, each pair's address {@code /api/compare/…}. */
		public static Several of(String baseline, String path, List<ComparisonService.Pair> pairs,
				List<ComparisonSnapshot> snapshots) {
			return new Several(baseline, path, pairs.stream().map(pair -> "/api/compare/" + pair.path()).toList(),
					snapshots);
		}

		@Override
		public List<ComparisonSnapshot> pairwise() {
			return contenders;
		}

	}

	/**
	 * The baseline's path of a publication: its {@code baseline} with several contenders,
	 * else its baseline run.
	 */
	static String baselineOf(Publication publication) {
		return publication.several() ? publication.result().path("baseline").asString() : publication.baselineId();
	}

	/**
	 * Each contender's comparison with the baseline as a publication of that pair: the
	 * same id, title and record, the contender's frozen body; for one contender, the
	 * publication alone.
	 */
	static List<Publication> eachContender(Publication publication) {
		if (!publication.several()) {
			return List.of(publication);
		}
		List<String> contenders = publication.contenders();
		JsonNode bodies = publication.result().path("contenders");
		List<Publication> each = new ArrayList<>(contenders.size());
		for (int i = 0; i < contenders.size(); i++) {
			each.add(new Publication(publication.id(), publication.baselineId(), contenders.get(i),
					publication.settings(), publication.title(), publication.caption(), bodies.get(i),
					publication.rulesVersion(), publication.createdAt(), publication.createdBy(),
					publication.settingsReason(), publication.noComparableConfirmed(), null));
		}
		return each;
	}

	/** A setting as the refusal names it: {@code output_tolerance 10 (default 0.1)}. */
	private static String setting(ComparisonSnapshot.SettingDifference difference) {
		return difference.name() + " " + text(difference.value()) + " (default " + text(difference.standard()) + ")";
	}

	private static String text(Object value) {
		return value instanceof List<?> list ? String.join(",", list.stream().map(String::valueOf).toList())
				: String.valueOf(value);
	}

}
