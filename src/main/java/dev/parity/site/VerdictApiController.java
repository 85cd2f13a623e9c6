package dev.parity.site;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.parity.compare.ComparisonSnapshot;
import dev.parity.snapshots.ComparisonBudget;
import dev.parity.snapshots.ComparisonService;
import dev.parity.history.HistoryInWords;
import dev.parity.history.Verdicts;
import dev.parity.run.RunId;
import io.swagger.v3.oas.annotations.Operation;
import org.jspecify.annotations.Nullable;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The CI verdict of a run: status, baseline, the worse cells, why it is not comparable,
 * and a Markdown summary fit for a pull-request comment (the verdict, then the
 * comparison's own export) with a link to the comparison.
 */
@RestController
class VerdictApiController {

	private final Verdicts verdicts;

	private final ComparisonViews comparisons;

	private final HistoryInWords words;

	private final ComparisonBudget budget;

	private final ComparisonService snapshots;

	VerdictApiController(Verdicts verdicts, ComparisonViews comparisons, HistoryInWords words, ComparisonBudget budget,
			ComparisonService snapshots) {
		this.words = words;
		this.budget = budget;
		this.snapshots = snapshots;
		this.verdicts = verdicts;
		this.comparisons = comparisons;
	}

	record RegressionView(Map<String, Object> params, String anchor, String metric, double ratio, boolean significant,
			@Nullable Double spread, @JsonProperty("noise_points") int noisePoints) {
	}

	record ReasonView(String rule, String message) {
	}

	/**
	 * @param baselineTitle the baseline run's title, null without a baseline
	 * @param inWords what the verdict rests on in words ("decode −8.7 % at c=1 × 512
	 * tokens")
	 */
	record VerdictView(String status, @Nullable String baseline,
			@JsonProperty("comparison_url") @Nullable String comparisonUrl, List<RegressionView> regressions,
			List<ReasonView> reasons, @JsonProperty("alert_magnitude") double alertMagnitude, String markdown,
			@JsonProperty("baseline_title") @Nullable String baselineTitle, @JsonProperty("in_words") String inWords) {
	}

	/**
	 * The baseline the verdict will most likely have; {@code null} when none or when the
	 * run or baseline is not one (the verdict then says so itself).
	 */
	private @Nullable String likelyBaseline(String id, @Nullable String baseline) {
		try {
			String likely = verdicts.likelyBaseline(id, baseline);
			return likely != null && RunId.isValid(likely) ? likely : null;
		}
		catch (RuntimeException ex) {
			return null;
		}
	}

	/**
	 * The export made ahead; {@code null} if that failed (made again, the same way, it
	 * fails as it should).
	 */
	private static @Nullable String joined(CompletableFuture<String> made) {
		try {
			return made.join();
		}
		catch (CompletionException | CancellationException ex) {
			return null;
		}
	}

	/** The comparison's own Markdown export, as its page's export link gives it. */
	private String markdown(ComparisonService.Pair runs, ComparisonSnapshot snapshot, Map<String, String> query) {
		String export = comparisons.export(runs, snapshot, "md", query).getBody();
		return export == null ? "" : export;
	}

	@Operation(summary = "The CI verdict of a run against its baseline (baseline=auto, or a run id)")
	@GetMapping("/api/runs/{id}/verdict")
	VerdictView showVerdict(@PathVariable String id, @RequestParam(required = false) @Nullable String baseline) {
		// Its comparison and that comparison's export are started first with the baseline
		// the verdict will most likely have: made on another thread while the series is
		// brought up to date and the verdict's ratios are read, and used if that is the
		// baseline.
		Map<String, String> query = Map.of("vary", "engine");
		String likely = likelyBaseline(id, baseline);
		ComparisonService.Pair likelyPair = likely == null ? null : new ComparisonService.Pair(likely, id);
		Optional<CompletableFuture<String>> early = likelyPair == null ? Optional.empty() : snapshots
			.snapshotAhead(likelyPair, snapshots.settings(query), snapshot -> markdown(likelyPair, snapshot, query));
		Verdicts.Verdict verdict = verdicts.verdict(id, baseline);
		HistoryInWords.VerdictInWords said = words.verdict(id, verdict);
		String pair = verdict.baseline() == null ? null : verdict.baseline() + "..." + id;
		String url = pair == null ? null : "/compare/" + pair + "?vary=engine";
		StringBuilder md = new StringBuilder();
		md.append("**Parity verdict: ").append(verdict.status()).append("**");
		switch (verdict.status()) {
			case "no-baseline" ->
				md.append(" — no earlier run of this series on the default branch to compare with.\n");
			case "not-comparable" -> {
				md.append(" — the comparison is not like for like:\n\n");
				verdict.reasons()
					.forEach(r -> md.append("- `")
						.append(r.rule())
						.append("`: ")
						.append(ComparisonExport.escape(r.message()))
						.append('\n'));
			}
			case "pass" -> md.append(" — no comparable cell is worse by ")
				.append(Math.round(verdict.alertMagnitude() * 100))
				.append(" % or more.\n");
			default -> {
				md.append(" — ")
					.append(verdict.regressions().size())
					.append(" cell × metric")
					.append(verdict.regressions().size() == 1 ? "" : "s")
					.append(" worse by ")
					.append(Math.round(verdict.alertMagnitude() * 100))
					.append(" % or more:\n\n");
				verdict.regressions()
					.forEach(r -> md.append("- ")
						.append(r.anchor())
						.append(" `")
						.append(r.metric())
						.append("` ratio ")
						.append(String.format(Locale.ROOT, "%.3f", r.ratio()))
						.append(r.significant() ? " (beyond the noise)"
								: r.spread() == null ? " (no noise estimate)" : " (within the noise)")
						.append('\n'));
			}
		}
		if (pair != null) {
			md.append('\n');
			ComparisonService.Pair runs = ComparisonService.Pair.parse(pair);
			// A CI job waits for its verdict: its comparison waits for a turn, unrefused,
			// and is kept for the export; the export's optional "What would settle it" is
			// left out as on the comparison's page when no turn comes within the usual
			// wait.
			String started = verdict.baseline().equals(likely) ? early.map(VerdictApiController::joined).orElse(null)
					: null;
			md.append(started != null ? started : markdown(runs,
					budget.patiently(() -> snapshots.snapshot(runs, snapshots.settings(query))), query));
		}
		return new VerdictView(verdict.status(), verdict.baseline(), url,
				verdict.regressions()
					.stream()
					.map(r -> new RegressionView(r.params(), r.anchor(), r.metric(), r.ratio(), r.significant(),
							r.spread(), r.noisePoints()))
					.toList(),
				verdict.reasons().stream().map(r -> new ReasonView(r.rule(), r.message())).toList(),
				verdict.alertMagnitude(), md.toString(), said.baseline() == null ? null : said.baseline().title(),
				said.words());
	}

}
