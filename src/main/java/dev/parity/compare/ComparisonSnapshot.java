package dev.parity.compare;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.parity.run.MetricDefinition;
import dev.parity.run.Params;
import dev.parity.run.Provenance;
import dev.parity.run.Run;
import dev.parity.stats.RatioInterval;
import io.swagger.v3.oas.annotations.media.Schema;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * A comparison as pages, exports and the JSON API show it, and as a publication freezes
 * it: the API shape (both runs with their run flags, the settings in force and how they
 * differ from the server's defaults, the comparison's flags, the headlines, the matched
 * cells with every flag next to every number, the unmatched cells) plus what a page needs
 * to show it without recomputing (units and directions, ratio phrases, headline
 * sentences, the provenance diff, the rules version, when it was computed, the Pareto
 * view and goodput).
 *
 * <p>
 * Jackson writes it in exactly the shape and key order the JSON API has always had, and
 * reads back every shape a publication ever stored: a field a snapshot of its day did not
 * have reads as what the page assumed then (no short form: the rule id; no phrases: none;
 * no settings disclosure: today's defaults compared, no count; no Pareto view: none).
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({ "baseline", "contender", "settings", "non_default_settings", "ungreyed_by_settings", "flags",
		"headlines", "cells", "unmatched", "rules_version", "computed_at", "metrics", "provenance", "pareto",
		"goodput" })
public record ComparisonSnapshot(Side baseline, Side contender, Map<String, Object> settings,
		@JsonProperty("non_default_settings") @Nullable List<SettingDifference> nonDefaultSettings,
		@JsonProperty("ungreyed_by_settings") @Nullable Integer ungreyedBySettings, List<FlagView> flags,
		List<HeadlineView> headlines, List<CellView> cells, List<UnmatchedView> unmatched,
		@JsonProperty("rules_version") @Nullable String rulesVersion,
		@JsonProperty("computed_at") @Nullable String computedAt, List<MetricInfo> metrics,
		List<ProvenanceRow> provenance, @Nullable Pareto pareto,
		@JsonInclude(JsonInclude.Include.NON_NULL) @Nullable GoodputView goodput) {

	/**
	 * The version of the rules that computed a comparison. Change it whenever a rule, a
	 * threshold default or a phrase changes, so that a published comparison can say it
	 * was computed by older rules.
	 */
	public static final String RULES_VERSION = "2026-12-04.2";

	/**
	 * What each version of the rules changed in what a comparison says, newest last, for
	 * the banner of a publication computed by older rules. Versions before the first
	 * named here changed nothing that is named.
	 */
	public static final Map<String, String> RULES_CHANGES = Map.of("2026-12-03.1",
			"goodput of a cell without per-request samples is unknown (meets: null), no longer \"does not meet\"; the "
					+ "highest concurrency meeting the objectives is unknown when a cell above it has no samples",
			"2026-12-04.1",
			"the within-run interval of one run per side (bootstrap over samples) is computed exactly from the "
					+ "bootstrap law of each sample median instead of 1,000 drawn resamples, and its p-value is exact: "
					+ "ends and p-values move within the resampling's former Monte-Carlo error",
			"2026-12-04.2",
			"the ends of that interval are the exact quantiles of the ratio's law, where a bisection stopped within "
					+ "10⁻¹² above them: ends move by less than 10⁻¹² of themselves, no shown digit changes");

	/**
	 * What the rules changed after {@code version}, in words, oldest first; empty when
	 * nothing named.
	 */
	public static List<String> rulesChangedSince(String version) {
		return RULES_CHANGES.entrySet()
			.stream()
			.filter(change -> change.getKey().compareTo(version) > 0)
			.sorted(Map.Entry.comparingByKey())
			.map(Map.Entry::getValue)
			.toList();
	}

	private static final JsonMapper TEXT = JsonMapper.builder().build();

	public ComparisonSnapshot {
		settings = settings == null ? Map.of() : settings;
		flags = listOf(flags);
		headlines = listOf(headlines);
		cells = listOf(cells);
		unmatched = listOf(unmatched);
		metrics = listOf(metrics);
		provenance = listOf(provenance);
	}

	/**
	 * One side of a comparison: its (first) run, its run flags and disclosed caveats, its
	 * replicates, fixed params.
	 */
	@JsonIgnoreProperties(ignoreUnknown = true)
	@JsonPropertyOrder({ "id", "url", "title", "role", "system", "model", "flags", "runs", "disclosed_caveats",
			"fixed" })
	@Schema(name = "ComparisonSide")
	public record Side(String id, @Nullable String url, String title, String role, String system, ModelRef model,
			List<FlagView> flags, @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable List<String> runs,
			@JsonProperty("disclosed_caveats") List<String> disclosedCaveats,
			@JsonInclude(JsonInclude.Include.NON_NULL) @Nullable Map<String, String> fixed) {

		public Side {
			flags = listOf(flags);
			disclosedCaveats = listOf(disclosedCaveats);
		}

		/** The replicates of a side of several runs; empty for one run. */
		public List<String> replicates() {
			return runs == null ? List.of() : runs;
		}
	}

	/** A side's model: repository, revision, commit. */
	@JsonIgnoreProperties(ignoreUnknown = true)
	@JsonPropertyOrder({ "repo", "revision", "commit" })
	public record ModelRef(String repo, @Nullable String revision, @Nullable String commit) {
	}

	/** A flag as JSON: {@code {rule, short, message, greys[, side]}}. */
	@JsonIgnoreProperties(ignoreUnknown = true)
	@JsonPropertyOrder({ "rule", "short", "message", "greys", "side" })
	public record FlagView(String rule, @JsonProperty("short") @Nullable String shortForm, String message,
			List<String> greys, @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable String side) {

		public FlagView {
			greys = listOf(greys);
		}

		static FlagView of(Flag flag) {
			return new FlagView(flag.rule(), flag.shortForm(), flag.message(), List.copyOf(flag.greys()), flag.side());
		}

		/**
		 * The few words shown beside the number: a snapshot frozen before flags had one
		 * falls back to the rule id.
		 */
		public String shortOrRule() {
			return shortForm == null ? rule : shortForm;
		}
	}

	/**
	 * A setting that differs from the server's default: its name, its value and the
	 * default, as written.
	 */
	@JsonIgnoreProperties(ignoreUnknown = true)
	@JsonPropertyOrder({ "name", "value", "default" })
	@Schema(name = "SettingDifference")
	public record SettingDifference(String name,
			@Schema(description = "the value in force: a number, a string or a list of strings") Object value,
			@Schema(description = "the server's default, written as the value is") @JsonProperty("default") Object standard) {
	}

	/** One metric's headline, with its sentence. */
	@JsonIgnoreProperties(ignoreUnknown = true)
	@JsonPropertyOrder({ "metric", "comparable", "within_band", "median_ratio", "excluded", "excluded_reasons",
			"verdicts", "median_ratio_interval", "sentence" })
	public record HeadlineView(String metric, int comparable, @JsonProperty("within_band") int withinBand,
			@JsonProperty("median_ratio") @Nullable Double medianRatio, int excluded,
			@JsonProperty("excluded_reasons") Map<String, Integer> excludedReasons,
			@JsonInclude(JsonInclude.Include.NON_NULL) @Nullable Map<String, Integer> verdicts,
			@JsonProperty("median_ratio_interval") @Nullable Interval medianRatioInterval, @Nullable String sentence) {

		public HeadlineView {
			excludedReasons = excludedReasons == null ? Map.of() : excludedReasons;
		}
	}

	/** A ratio's interval: {@code {low, high, confidence, method[, caution]}}. */
	@JsonIgnoreProperties(ignoreUnknown = true)
	@JsonPropertyOrder({ "low", "high", "confidence", "method", "caution" })
	@Schema(name = "SnapshotInterval")
	public record Interval(double low, double high, double confidence, String method,
			@JsonInclude(JsonInclude.Include.NON_NULL) @Nullable String caution) {

		static @Nullable Interval of(@Nullable RatioInterval interval) {
			return interval == null ? null : new Interval(interval.low(), interval.high(), interval.confidence(),
					interval.method(), interval.caution());
		}
	}

	/** A matched cell: its params, anchor, flags, every metric, its label. */
	@JsonIgnoreProperties(ignoreUnknown = true)
	@JsonPropertyOrder({ "params", "anchor", "flags", "metrics", "label" })
	public record CellView(Map<String, Object> params, String anchor, List<FlagView> flags, List<MetricView> metrics,
			@Nullable String label) {

		public CellView {
			params = params == null ? Map.of() : params;
			flags = listOf(flags);
			metrics = listOf(metrics);
		}

		/** The metric of this name, or {@code null} when the cell has none. */
		public @Nullable MetricView metric(String name) {
			MetricView found = null;
			for (MetricView metric : metrics) {
				if (metric.metric().equals(name)) {
					found = metric;
				}
			}
			return found;
		}
	}

	/**
	 * One metric of a matched cell: both values, the ratio, whether it counts, its flags,
	 * interval, verdict and significance, and the words a page shows.
	 */
	@JsonIgnoreProperties(ignoreUnknown = true)
	@JsonPropertyOrder({ "metric", "baseline", "contender", "ratio", "comparable", "flags", "interval", "verdict",
			"significant", "phrase", "greyed", "interval_phrase", "verdict_phrase" })
	public record MetricView(String metric, @Nullable Double baseline, @Nullable Double contender,
			@Nullable Double ratio, boolean comparable, List<FlagView> flags, @Nullable Interval interval,
			@Nullable String verdict, @Nullable Boolean significant, @Nullable String phrase, @Nullable Boolean greyed,
			@JsonProperty("interval_phrase") @Nullable String intervalPhrase,
			@JsonProperty("verdict_phrase") @Nullable String verdictPhrase) {

		public MetricView {
			flags = listOf(flags);
		}

		/**
		 * Whether a flag greys this number; {@code false} for a snapshot frozen before it
		 * said so.
		 */
		public boolean isGreyed() {
			return Boolean.TRUE.equals(greyed);
		}
	}

	/** A cell on one side only. */
	@JsonIgnoreProperties(ignoreUnknown = true)
	@JsonPropertyOrder({ "side", "params", "anchor" })
	public record UnmatchedView(String side, Map<String, Object> params, String anchor) {

		public UnmatchedView {
			params = params == null ? Map.of() : params;
		}
	}

	/**
	 * A metric column: its unit, which way is better, whether it depends on output
	 * length.
	 */
	@JsonIgnoreProperties(ignoreUnknown = true)
	@JsonPropertyOrder({ "metric", "unit", "better", "output_sensitive" })
	public record MetricInfo(String metric, @Nullable String unit, @Nullable String better,
			@JsonProperty("output_sensitive") boolean outputSensitive) {
	}

	/** A row of the provenance diff. */
	@JsonIgnoreProperties(ignoreUnknown = true)
	@JsonPropertyOrder({ "field", "baseline", "contender", "status", "rule" })
	public record ProvenanceRow(String field, @Nullable String baseline, @Nullable String contender, String status,
			@Nullable String rule) {
	}

	/**
	 * The snapshot of a comparison, its settings disclosed against the server's defaults,
	 * neither side fixing params.
	 */
	public static ComparisonSnapshot of(Comparison comparison, CompareSettings defaults, JsonMapper mapper) {
		return of(comparison, defaults, FixedParams.NONE, FixedParams.NONE, mapper);
	}

	/**
	 * The snapshot of a comparison, computed now: its settings disclosed against the
	 * server's defaults, each side that fixes grid parameters saying which.
	 */
	public static ComparisonSnapshot of(Comparison comparison, CompareSettings defaults, FixedParams baselineFixed,
			FixedParams contenderFixed, JsonMapper mapper) {
		SettingsDisclosure disclosure = SettingsDisclosure.of(comparison, defaults);
		double band = comparison.settings().band();
		Map<String, Object> settings = new LinkedHashMap<>();
		comparison.settings().asMap().forEach((name, value) -> settings.put(name, value(value)));
		List<SettingDifference> nonDefault = disclosure.nonDefault()
			.stream()
			.map(d -> new SettingDifference(d.name(), value(d.value()), value(d.standard())))
			.toList();
		List<HeadlineView> headlines = comparison.headlines()
			.stream()
			.map(h -> new HeadlineView(h.metric(), h.comparable(), h.withinBand(), h.medianRatio(), h.excluded(),
					h.excludedReasons(), h.verdicts(), Interval.of(h.medianRatioInterval()), h.sentence(band)))
			.toList();
		List<CellView> cells = new ArrayList<>(comparison.cells().size());
		for (ComparedCell cell : comparison.cells()) {
			List<MetricView> metrics = new ArrayList<>(cell.metrics().size());
			for (ComparedMetric metric : cell.metrics()) {
				metrics.add(new MetricView(metric.metric(), metric.baseline(), metric.contender(), metric.ratio(),
						metric.comparable(), flags(metric.flags()), Interval.of(metric.interval()),
						metric.verdict() == null ? null : metric.verdict().id(), metric.significant(),
						metric.ratioPhrase(), metric.greyed(), metric.intervalPhrase(), metric.verdictWords()));
			}
			cells.add(new CellView(params(cell.params()), cell.anchor(), flags(cell.flags()), metrics,
					cell.params().label()));
		}
		List<UnmatchedView> unmatched = comparison.unmatched()
			.stream()
			.map(cell -> new UnmatchedView(cell.side(), params(cell.params()), cell.anchor()))
			.toList();
		List<MetricInfo> metricInfo = comparison.metrics().stream().map(name -> {
			MetricDefinition definition = definition(comparison, name);
			return new MetricInfo(name, definition.unit(), definition.better(), definition.outputSensitive());
		}).toList();
		List<ProvenanceRow> provenance = comparison.provenance()
			.stream()
			.map(d -> new ProvenanceRow(d.field(), d.baseline(), d.contender(), d.status(), d.rule()))
			.toList();
		Pareto pareto = SweepViews.paretoOfComparison(comparison);
		GoodputView goodput = comparison.settings().slo().any()
				? SweepViews.goodputOfComparison(comparison, comparison.settings().slo()) : null;
		return new ComparisonSnapshot(
				side(comparison.baseline(), comparison.baselineChecks(), comparison.baselineRuns(), baselineFixed),
				side(comparison.contender(), comparison.contenderChecks(), comparison.contenderRuns(), contenderFixed),
				settings, nonDefault, disclosure.ungreyed(), flags(comparison.flags()), headlines, cells, unmatched,
				RULES_VERSION, Instant.now().toString(), metricInfo, provenance, pareto, goodput);
	}

	private static Side side(Run run, RunFlags checks, List<Run> runs, FixedParams fixed) {
		Provenance provenance = run.provenance();
		ModelRef model = new ModelRef(provenance.model().repo(), provenance.model().revision(),
				provenance.model().commit() == null ? null : provenance.model().commit().value());
		return new Side(run.id().value(), run.url(), run.title(), run.role().id(), provenance.system().name(), model,
				flags(checks.run()), runs.size() > 1 ? runs.stream().map(r -> r.id().value()).toList() : null,
				// A run's disclosed caveats are part of its immutable document: frozen
				// with the numbers.
				List.copyOf(provenance.caveats()), fixed.isEmpty() ? null : fixed.values());
	}

	private static List<FlagView> flags(List<Flag> flags) {
		List<FlagView> views = new ArrayList<>(flags.size());
		flags.forEach(flag -> views.add(FlagView.of(flag)));
		return views;
	}

	/**
	 * Params with numbers as JSON numbers (whole numbers without a fraction) and strings
	 * as strings.
	 */
	static Map<String, Object> params(Params params) {
		Map<String, Object> values = new LinkedHashMap<>();
		params.values().forEach((name, value) -> {
			if (value instanceof BigDecimal number) {
				values.put(name, number.signum() == 0 || number.scale() <= 0 ? number.toBigInteger()
						: number.stripTrailingZeros());
			}
			else {
				values.put(name, value.toString());
			}
		});
		return values;
	}

	/**
	 * A setting's value: a number as written ({@code 10}, not {@code 10.0}), a list as
	 * strings, else a string.
	 */
	private static Object value(Object value) {
		if (value instanceof Double number) {
			return number == Math.rint(number) && Math.abs(number) < 1e15 ? (Object) (long) (double) number : number;
		}
		if (value instanceof List<?> list) {
			return list.stream().map(Object::toString).toList();
		}
		return value.toString();
	}

	private static MetricDefinition definition(Comparison comparison, String name) {
		for (ComparedCell cell : comparison.cells()) {
			for (ComparedMetric metric : cell.metrics()) {
				if (metric.metric().equals(name)) {
					return metric.definition();
				}
			}
		}
		return comparison.contender()
			.provenance()
			.catalogue()
			.find(name)
			.orElseGet(() -> comparison.baseline().provenance().catalogue().get(name));
	}

	private static <T> List<T> listOf(@Nullable List<T> list) {
		return list == null ? List.of() : list;
	}

	/**
	 * A snapshot as a publication stored it, in whichever of the formats written over
	 * time: fields it lacks read as the page assumed when it lacked them.
	 */
	public static ComparisonSnapshot read(JsonNode stored, JsonMapper mapper) {
		return mapper.treeToValue(stored, ComparisonSnapshot.class);
	}

	/** Its Pareto view and goodput, as a run's are. */
	public SweepViews.Views views() {
		return new SweepViews.Views(pareto, goodput);
	}

	/**
	 * What this comparison says, without when it was computed: two snapshots with the
	 * same claim say the same thing ({@link #claim(JsonNode)} of the stored one equals
	 * this one's).
	 */
	public JsonNode claim() {
		return claim(TEXT.valueToTree(this));
	}

	/** What a stored snapshot says, without when it was computed. */
	public static JsonNode claim(JsonNode snapshot) {
		// Through text and back, so that a number read from the database equals the same
		// number computed now.
		ObjectNode claim = (ObjectNode) TEXT.readTree(TEXT.writeValueAsString(snapshot));
		claim.remove("computed_at");
		claim.remove("rules_version");
		// Said about the settings against the server's defaults of the day, not about the
		// two runs.
		claim.remove("non_default_settings");
		claim.remove("ungreyed_by_settings");
		// Drawn from the cells' own numbers and greying, so it says nothing they do not;
		// publications frozen before it
		// existed do not lack anything.
		claim.remove("pareto");
		// Added with the rules of 2026-12-03.1: why a highest concurrency is unknown (its
		// value, null, is compared).
		JsonNode goodput = claim.get("goodput");
		if (goodput != null && goodput.isObject()) {
			goodput.forEach(side -> side.path("highest_concurrency").forEach(entry -> {
				if (entry instanceof ObjectNode object) {
					object.remove("missing");
				}
			}));
		}
		((ObjectNode) claim.get("baseline")).remove("url");
		((ObjectNode) claim.get("contender")).remove("url");
		return claim;
	}

	/** A rough size in memory, for caches that weigh what they keep. */
	public int estimatedBytes() {
		int bytes = 4096 + 2048 * (baseline.flags().size() + contender.flags().size() + flags.size());
		for (CellView cell : cells) {
			bytes += 600 + 500 * cell.flags().size();
			for (MetricView metric : cell.metrics()) {
				bytes += 700 + 500 * metric.flags().size();
			}
		}
		bytes += 400 * (unmatched.size() + provenance.size() + headlines.size());
		// The Pareto view and goodput hold a point or row per cell.
		bytes += 400 * cells.size() * (goodput == null ? 1 : 2);
		return bytes;
	}

	/**
	 * The settings the notice names: as disclosed, or, for a snapshot stored before
	 * settings were disclosed, its settings compared with today's defaults.
	 */
	private List<SettingsDisclosure.Shown> shownSettings(CompareSettings defaults) {
		List<SettingsDisclosure.Shown> shown = new ArrayList<>();
		if (nonDefaultSettings != null) {
			nonDefaultSettings.forEach(entry -> shown
				.add(new SettingsDisclosure.Shown(entry.name(), text(entry.value()), text(entry.standard()))));
		}
		else {
			Map<String, Object> standard = defaults.asMap();
			settings.forEach((name, value) -> {
				if (standard.containsKey(name) && !text(value).equals(SettingsDisclosure.text(standard.get(name)))) {
					shown.add(new SettingsDisclosure.Shown(name, text(value),
							SettingsDisclosure.text(standard.get(name))));
				}
			});
		}
		return shown;
	}

	/**
	 * The line that discloses non-default settings, or {@code null} under the defaults; a
	 * snapshot stored before settings were disclosed has its settings compared with
	 * today's defaults, without a count.
	 */
	public @Nullable String settingsNotice(CompareSettings defaults) {
		return SettingsDisclosure.sentence(shownSettings(defaults),
				ungreyedBySettings == null ? 0 : ungreyedBySettings);
	}

	/**
	 * A stored setting as text: a list joined by commas ({@code none} when empty), a
	 * number as written.
	 */
	private static String text(@Nullable Object value) {
		if (value instanceof List<?> list) {
			return list.isEmpty() ? "none" : String.join(",", list.stream().map(String::valueOf).toList());
		}
		if (value instanceof Number number) {
			return SettingsDisclosure.text(number.doubleValue());
		}
		return String.valueOf(value);
	}

	/** The band in force: what the page draws intervals and the chart against. */
	public double band() {
		return settings.get("band") instanceof Number number ? number.doubleValue() : 0.1;
	}

}
