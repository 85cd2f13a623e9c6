package dev.parity.compare;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import dev.parity.Fixtures;
import dev.parity.run.Provenance;
import dev.parity.run.Role;
import dev.parity.run.Run;
import dev.parity.run.RunDocument;
import dev.parity.run.RunDocumentReader;
import dev.parity.run.RunId;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static dev.parity.compare.TestRuns.aRun;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The plan that settles a comparison, one greying rule at a time, and the seed story's
 * claim (reference…C) with its control (E).
 */
class ControlPlanTests {

	private static final JsonMapper MAPPER = JsonMapper.builder().build();

	private static final Path FIXTURES = Fixtures.given().resolve("seed-story");

	private static final CompareSettings DEFAULTS = CompareSettings.defaults();

	@Test
	void everyRuleThatGreysKnowsItsRemedy() {
		List<String> remedied = ControlPlan.REMEDIES.stream().map(Remedy::id).toList();
		assertThat(remedied).contains("checkpoint-differs", "checkpoint-unknown", "dataset-differs", "harness-differs",
				"engine-differs", "system-differs", "critical-flags-differ", "environment-differs",
				"output-length-differs", "output-length-unknown", "statistic-missing", "implausible-ratio",
				"all-failed", "empty-cell", "failures", "runaway", "unstable", "latency-spike", "no-warmup");
	}

	@Test
	void theSeedStorysClaimIsSettledByPinningTheCommitAndMatchingTheWork() {
		Run reference = load("reference.json");
		Run c = load("run-c-effort-high.json");
		Comparison claim = compare(reference, c);

		ControlPlan plan = ControlPlan.of(claim);

		assertThat(plan.settled()).isFalse();
		assertThat(plan.rerun()).isEqualTo(new ControlPlan.Rerun("contender", c.id().value()));
		assertThat(plan.changes()).extracting(ControlChange::rule, ControlChange::field)
			.containsExactly(Tuple.tuple("checkpoint-differs", "model.commit"),
					Tuple.tuple("output-length-differs", "workload.request_params"));
		ControlChange commit = plan.changes().get(0);
		assertThat(commit.from()).isEqualTo(TestRuns.OTHER_COMMIT);
		assertThat(commit.to()).isEqualTo(TestRuns.COMMIT);
		ControlChange params = plan.changes().get(1);
		assertThat(params.from()).hasToString("{\"reasoning_effort\":\"high\"}");
		assertThat(params.to()).hasToString("{\"chat_template_kwargs\":{\"thinking\":false}}");
		assertThat(params.check()).isEqualTo(new ControlCheck("output tokens per request", 512, 0.10));
		// The reference's cancelled probe at 131072 × {4, 8}: its +4323 % and +6050 %
		// stay where they are.
		assertThat(plan.cannotSettle()).extracting(CannotSettle::rule).containsExactly("implausible-ratio", "failures");
		assertThat(plan.cannotSettle().get(1).why()).contains("the reference's side")
			.contains("cell-concurrency-4--prompt_tokens-131072", "cell-concurrency-8--prompt_tokens-131072");
		assertThat(plan.cells()).hasSize(18).doesNotContain("cell-concurrency-4--prompt_tokens-131072");
	}

	@Test
	void theControlHoldsThePlanAndShowsWhatTheClaimWouldHaveSaid() {
		Run reference = load("reference.json");
		Run c = load("run-c-effort-high.json");
		Run e = load("run-e-control.json");
		Comparison claim = compare(reference, c);
		Comparison controlled = compare(reference, e);
		ControlPlan plan = ControlPlan.of(claim);

		ControlOutcome outcome = ControlOutcome.of(plan, claim, e, controlled);

		assertThat(outcome.holds()).containsExactly("model.commit", "workload.request_params");
		assertThat(outcome.missed()).isEmpty();
		assertThat(outcome.before()).filteredOn(before -> before.metric().equals("decode_tps"))
			.singleElement()
			.satisfies(before -> {
				assertThat(before.cells()).isEqualTo(18);
				assertThat(before.medianRatio()).isGreaterThan(1.10);
			});
		assertThat(controlled.headline("decode_tps").orElseThrow().medianRatio()).isCloseTo(1.011, within(0.0005));
		assertThat(outcome.contradicts(controlled)).isTrue();
		// The claim stays as it was: the control greys and un-greys nothing of it.
		assertThat(compare(reference, c).headline("decode_tps").orElseThrow().comparable()).isZero();
	}

	@Test
	void aControlThatAcceptedTheSettingButDidNotObeyItMissesTheCheck() {
		Run reference = load("reference.json");
		Run c = load("run-c-effort-high.json");
		Run d = load("run-d-effort-off.json");
		Comparison claim = compare(reference, c);
		ControlPlan plan = ControlPlan.of(claim);

		ControlOutcome outcome = ControlOutcome.of(plan, claim, d, compare(reference, d));

		// D is pinned to the reference's commit, but produced ~4,450 tokens per request,
		// whatever it declared.
		assertThat(outcome.holds()).containsExactly("model.commit");
		assertThat(outcome.missed()).singleElement().satisfies(missed -> {
			assertThat(missed.field()).isEqualTo("workload.request_params");
			assertThat(missed.expected()).isEqualTo(512.0);
			assertThat((Double) missed.measured()).isGreaterThan(4000);
		});
	}

	@Test
	void aComparisonWithNothingGreyedNeedsNoControl() {
		ControlPlan plan = ControlPlan
			.of(TestRuns.compare(aRun().cell(c -> c.decode(70)), aRun().cell(c -> c.decode(71)), DEFAULTS));

		assertThat(plan.settled()).isTrue();
		assertThat(plan.changes()).isEmpty();
		assertThat(plan.cannotSettle()).isEmpty();
		assertThat(plan.cells()).isEmpty();
	}

	@Test
	void checkpointDiffers() {
		ControlPlan plan = plan(aRun().cell(c -> c.decode(70)),
				aRun().commit(TestRuns.OTHER_COMMIT).cell(c -> c.decode(80)));

		assertThat(plan.changes()).singleElement().satisfies(change -> {
			assertThat(change.rule()).isEqualTo("checkpoint-differs");
			assertThat(change.field()).isEqualTo("model.commit");
			assertThat(change.from()).isEqualTo(TestRuns.OTHER_COMMIT);
			assertThat(change.to()).isEqualTo(TestRuns.COMMIT);
			assertThat(change.how()).contains("--revision " + TestRuns.COMMIT);
		});
		assertThat(plan.cells()).containsExactly("cell-concurrency-1--prompt_tokens-1024");
	}

	@Test
	void checkpointUnknownPinsTheRerunSideButNotAReference() {
		ControlPlan ours = plan(aRun().cell(c -> c.decode(70)), aRun().unpinned().cell(c -> c.decode(80)));
		assertThat(ours.changes()).singleElement().satisfies(change -> {
			assertThat(change.rule()).isEqualTo("checkpoint-unknown");
			assertThat(change.from()).isNull();
			assertThat(change.to()).isEqualTo(TestRuns.COMMIT);
		});

		ControlPlan theirs = plan(aRun().role(Role.REFERENCE).unpinned().cell(c -> c.decode(70)),
				aRun().cell(c -> c.decode(80)));
		assertThat(theirs.changes()).isEmpty();
		assertThat(theirs.cannotSettle()).singleElement()
			.satisfies(reason -> assertThat(reason.why()).contains("the reference records no resolved commit"));
		assertThat(theirs.cells()).isEmpty();
	}

	@Test
	void criticalFlagsDifferListsOnlyTheFlagsThatDiffer() {
		ControlPlan plan = plan(
				aRun().flag("kv-cache-dtype", "fp8").flag("tensor-parallel-size", "2").cell(c -> c.decode(70)),
				aRun().flag("--kv_cache_dtype", "auto").flag("tensor-parallel-size", "2").cell(c -> c.decode(80)));

		assertThat(plan.changes()).singleElement().satisfies(change -> {
			assertThat(change.rule()).isEqualTo("critical-flags-differ");
			assertThat(change.field()).isEqualTo("engine.flags.kv-cache-dtype");
			assertThat(change.from()).isEqualTo("auto");
			assertThat(change.to()).isEqualTo("fp8");
		});
	}

	@Test
	void datasetEngineAndHarnessDiffer() {
		ControlPlan plan = plan(aRun().cell(c -> c.decode(70)),
				aRun().dataset("sharegpt").engine("sglang").harness("genai-perf").cell(c -> c.decode(80)));

		assertThat(plan.changes())
			.extracting(ControlChange::rule, ControlChange::field, ControlChange::from, ControlChange::to)
			.containsExactly(Tuple.tuple("dataset-differs", "workload.dataset", "sharegpt", "random"),
					Tuple.tuple("harness-differs", "harness.name", "genai-perf", "reference-harness"),
					Tuple.tuple("engine-differs", "engine.name", "sglang", "vllm"));
	}

	@Test
	void aReferencesHarnessAndTheSystemsComparedCannotBeSettled() {
		ControlPlan plan = plan(aRun().role(Role.REFERENCE).cell(c -> c.decode(70)),
				aRun().harness("genai-perf").system("8x H100").cell(c -> c.decode(80)),
				TestRuns.settings("vary", "engine"));

		assertThat(plan.changes()).isEmpty();
		assertThat(plan.cannotSettle()).extracting(CannotSettle::rule)
			.containsExactly("harness-differs", "system-differs");
		assertThat(plan.cells()).isEmpty();
	}

	@Test
	void theVariedVariableIsNeverPlannedAway() {
		ControlPlan plan = plan(aRun().cell(c -> c.decode(70)), aRun().system("8x H100").cell(c -> c.decode(80)));

		assertThat(plan.settled()).isTrue();
		assertThat(plan.cannotSettle()).isEmpty();
	}

	@Test
	void environmentDiffersSetsTheDriverButNotTheGpus() {
		Provenance.Environment ours = new Provenance.Environment("H100", 8, "550", "12.4", null, null, null, null,
				Map.of(), Map.of());
		Provenance.Environment theirs = new Provenance.Environment("H200", 8, "570", "12.4", null, null, null, null,
				Map.of(), Map.of());
		ControlPlan plan = plan(aRun().environment(ours).cell(c -> c.decode(70)),
				aRun().environment(theirs).cell(c -> c.decode(80)));

		assertThat(plan.changes()).singleElement().satisfies(change -> {
			assertThat(change.field()).isEqualTo("environment.driver");
			assertThat(change.from()).isEqualTo("570");
			assertThat(change.to()).isEqualTo("550");
		});
		assertThat(plan.cannotSettle()).singleElement()
			.satisfies(reason -> assertThat(reason.why()).contains("environment.gpu H100 vs H200"));
	}

	@Test
	void outputLengthDiffersWithAgreeingDeclarationsPlansTheMeasurement() {
		ControlPlan plan = plan(aRun().cell(c -> c.decode(70).outputTokens(512)),
				aRun().cell(c -> c.decode(120).outputTokens(4450)));

		assertThat(plan.changes()).singleElement().satisfies(change -> {
			assertThat(change.rule()).isEqualTo("output-length-differs");
			assertThat(change.field()).isEqualTo("cells[].output_tokens");
			assertThat(change.from()).isEqualTo(4450L);
			assertThat(change.to()).isEqualTo(512L);
			assertThat(change.check()).isEqualTo(new ControlCheck("output tokens per request", 512, 0.10));
		});
	}

	@Test
	void outputLengthDiffersPlansTheOtherSidesRequestParamsWithUnsetAsNull() {
		ControlPlan plan = plan(aRun().requestParams("{\"chat_template_kwargs\": {\"thinking\": false}}")
			.cell(c -> c.decode(70).outputTokens(512)), aRun().cell(c -> c.decode(120).outputTokens(830)));

		assertThat(plan.changes()).singleElement().satisfies(change -> {
			assertThat(change.field()).isEqualTo("workload.request_params");
			assertThat(change.from()).isNull();
			assertThat(change.to()).hasToString("{\"chat_template_kwargs\":{\"thinking\":false}}");
		});
	}

	@Test
	void outputLengthUnknownAsksTheRerunSideToMeasure() {
		ControlPlan plan = plan(aRun().cell(c -> c.decode(70)), aRun().cell(c -> c.decode(72).noOutputTokens()));

		assertThat(plan.changes()).singleElement().satisfies(change -> {
			assertThat(change.rule()).isEqualTo("output-length-unknown");
			assertThat(change.field()).isEqualTo("cells[].output_tokens");
			assertThat(change.from()).isNull();
		});
		ControlPlan reference = plan(aRun().role(Role.REFERENCE).cell(c -> c.decode(70).noOutputTokens()),
				aRun().cell(c -> c.decode(72)));
		assertThat(reference.changes()).isEmpty();
		assertThat(reference.cannotSettle()).extracting(CannotSettle::rule).containsExactly("output-length-unknown");
	}

	@Test
	void statisticMissing() {
		ControlPlan plan = plan(aRun().cell(c -> c.metric("ttft_s", 1.0)),
				aRun().cell(c -> c.metric("ttft_s", Map.of("mean", 1.1))));

		assertThat(plan.changes()).singleElement().satisfies(change -> {
			assertThat(change.rule()).isEqualTo("statistic-missing");
			assertThat(change.field()).isEqualTo("cells[].metrics.ttft_s.median");
		});
	}

	@Test
	void implausibleRatioIsNotAConfoundARerunRemoves() {
		ControlPlan plan = plan(aRun().cell(c -> c.decode(10)), aRun().cell(c -> c.decode(80)));

		assertThat(plan.changes()).isEmpty();
		assertThat(plan.cannotSettle()).extracting(CannotSettle::rule).containsExactly("implausible-ratio");
	}

	@Test
	void failuresOnTheRerunSideAreReRunAndOnAReferenceStay() {
		ControlPlan ours = plan(aRun().cell(c -> c.decode(70)), aRun().cell(c -> c.decode(70).requests(2, 2, 0)));
		assertThat(ours.changes()).singleElement().satisfies(change -> {
			assertThat(change.rule()).isEqualTo("failures");
			assertThat(change.field()).isEqualTo("cells[].requests.failed");
			assertThat(change.from()).isEqualTo(2);
			assertThat(change.to()).isEqualTo(0);
		});
		assertThat(ours.cells()).hasSize(1);

		ControlPlan theirs = plan(
				aRun().role(Role.REFERENCE)
					.cell(c -> c.decode(70).requests(0, 0, 4))
					.cell(c -> c.params("prompt_tokens", 8192, "concurrency", 1).decode(70)),
				aRun().cell(c -> c.decode(70)).cell(c -> c.params("prompt_tokens", 8192, "concurrency", 1).decode(71)));
		assertThat(theirs.changes()).isEmpty();
		assertThat(theirs.cannotSettle()).singleElement()
			.satisfies(reason -> assertThat(reason.why()).contains("the reference's side"));
		assertThat(theirs.cells()).isEmpty();
		assertThat(theirs.settled()).isTrue();
	}

	@Test
	void allFailed() {
		ControlPlan plan = plan(aRun().cell(c -> c.decode(70)), aRun().cell(c -> c.requests(0, 4, 0).noOutputTokens()));

		assertThat(plan.changes()).first().satisfies(change -> {
			assertThat(change.rule()).isEqualTo("all-failed");
			assertThat(change.from()).isEqualTo(4);
			assertThat(change.to()).isEqualTo(0);
		});
	}

	@Test
	void emptyCell() {
		ControlPlan plan = plan(aRun().cell(c -> c.decode(70)), aRun().cell(c -> c.requests(0, 0, 0)));

		assertThat(plan.changes()).extracting(ControlChange::rule).contains("empty-cell");
	}

	@Test
	void runawayAndUnstableFixTheOutputLengthCheckedByMeasurement() {
		ControlPlan plan = plan(aRun().cell(c -> c.decode(70).outputTokens(512, 510, 520)), aRun()
			.cell(c -> c.decode(71).outputTokens(512, 100, 9000).sampleOutputTokens(100, 512, 9000, 300, 700)));

		assertThat(plan.changes()).extracting(ControlChange::rule, ControlChange::field)
			.contains(Tuple.tuple("runaway", "workload.request_params.max_tokens"),
					Tuple.tuple("unstable", "workload.request_params.min_tokens"));
		assertThat(plan.changes()).allSatisfy(change -> {
			assertThat(change.to()).isEqualTo(512L);
			assertThat(change.check()).isNotNull();
		});
	}

	@Test
	void latencySpikeAndNoWarmupPlanOneWarmUp() {
		ControlPlan plan = plan(
				aRun().cell(c -> c.ttft(1.0).order(1).params("prompt_tokens", 280, "concurrency", 1))
					.cell(c -> c.ttft(1.0).order(2).params("prompt_tokens", 280, "concurrency", 4)),
				aRun().warmup(0)
					.cell(c -> c.ttft(3.0).order(1).params("prompt_tokens", 280, "concurrency", 1))
					.cell(c -> c.ttft(1.0).order(2).params("prompt_tokens", 280, "concurrency", 4)));

		assertThat(plan.changes()).singleElement().satisfies(change -> {
			assertThat(change.rule()).isEqualTo("latency-spike");
			assertThat(change.field()).isEqualTo("workload.warmup_requests");
			assertThat(change.from()).isEqualTo(0);
			assertThat(change.to()).isEqualTo(32);
		});
		assertThat(plan.cells()).containsExactly("cell-concurrency-1--prompt_tokens-280");
	}

	@Test
	void noWarmupNamesAWarmUpThoughItGreysNothing() {
		ControlPlan plan = plan(aRun().warmup(null).cell(c -> c.decode(70)), aRun().warmup(0).cell(c -> c.decode(71)));

		assertThat(plan.changes()).singleElement().satisfies(change -> {
			assertThat(change.rule()).isEqualTo("no-warmup");
			assertThat(change.from()).isEqualTo(0);
			assertThat(change.to()).isEqualTo(16);
		});
		assertThat(plan.cells()).isEmpty();
	}

	@Test
	void aSpikeDespiteAWarmUpIsNotSettledByOne() {
		ControlPlan plan = plan(
				aRun().cell(c -> c.ttft(1.0).order(1).params("prompt_tokens", 280, "concurrency", 1))
					.cell(c -> c.ttft(1.0).order(2).params("prompt_tokens", 280, "concurrency", 4)),
				aRun().cell(c -> c.ttft(3.0).order(1).params("prompt_tokens", 280, "concurrency", 1))
					.cell(c -> c.ttft(1.0).order(2).params("prompt_tokens", 280, "concurrency", 4)));

		assertThat(plan.changes()).isEmpty();
		assertThat(plan.cannotSettle()).singleElement()
			.satisfies(reason -> assertThat(reason.why()).contains("warmed up (32 requests)"));
	}

	@Test
	void aMeasuredBaselineAgainstAReferenceContenderRerunsTheBaseline() {
		ControlPlan plan = plan(aRun().commit(TestRuns.OTHER_COMMIT).cell(c -> c.decode(70)),
				aRun().role(Role.REFERENCE).cell(c -> c.decode(80)));

		assertThat(plan.rerun().side()).isEqualTo("baseline");
		assertThat(plan.changes()).singleElement().satisfies(change -> {
			assertThat(change.from()).isEqualTo(TestRuns.OTHER_COMMIT);
			assertThat(change.to()).isEqualTo(TestRuns.COMMIT);
		});
	}

	@Test
	void twoReferencesAreNeverRerun() {
		ControlPlan plan = plan(aRun().role(Role.REFERENCE).cell(c -> c.decode(70)),
				aRun().role(Role.REFERENCE).commit(TestRuns.OTHER_COMMIT).cell(c -> c.decode(80)));

		assertThat(plan.rerun()).isNull();
		assertThat(plan.changes()).isEmpty();
		assertThat(plan.cannotSettle()).extracting(CannotSettle::rule).containsExactly("checkpoint-differs");
	}

	@Test
	void theRerunCommandsCarryTheChanges() {
		Run c = load("run-c-effort-high.json");
		ControlPlan plan = ControlPlan.of(compare(load("reference.json"), c));

		Provenance applied = ProvenanceFields.applied(c.provenance(), plan.changes());

		assertThat(applied.model().commit().value()).isEqualTo(TestRuns.COMMIT);
		assertThat(applied.workload().requestParams()).hasToString("{\"chat_template_kwargs\":{\"thinking\":false}}");
		assertThat(c.provenance().model().commit().value()).isEqualTo(TestRuns.OTHER_COMMIT);
	}

	private static ControlPlan plan(TestRuns.RunBuilder baseline, TestRuns.RunBuilder contender) {
		return plan(baseline, contender, DEFAULTS);
	}

	private static ControlPlan plan(TestRuns.RunBuilder baseline, TestRuns.RunBuilder contender,
			CompareSettings settings) {
		return ControlPlan.of(TestRuns.compare(baseline, contender, settings));
	}

	private static Comparison compare(Run baseline, Run contender) {
		return new ComparisonBuilder().compare(baseline, contender, DEFAULTS);
	}

	static Run load(String name) {
		try {
			JsonNode document = MAPPER.readTree(Files.readAllBytes(FIXTURES.resolve(name)));
			RunDocument read = RunDocumentReader.read(document);
			return new Run(RunId.random(), read, "fp", Instant.now(), "test", List.of());
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
