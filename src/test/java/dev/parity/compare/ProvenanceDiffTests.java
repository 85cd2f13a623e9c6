package dev.parity.compare;

import java.util.List;

import org.junit.jupiter.api.Test;

import static dev.parity.compare.TestRuns.aRun;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

class ProvenanceDiffTests {

	@Test
	void listsEveryFieldInReadingOrder() {
		List<ProvenanceDifference> diff = diff(aRun().flag("kv-cache-dtype", "fp8"),
				aRun().flag("kv-cache-dtype", "fp8"));

		assertThat(diff).extracting(ProvenanceDifference::field)
			.containsExactly("system.name", "system.hardware", "model.repo", "model.revision", "model.commit",
					"engine.name", "engine.version", "engine.flags.kv-cache-dtype", "harness.name", "harness.version",
					"workload.dataset", "workload.output_tokens", "workload.reasoning", "workload.request_params",
					"workload.warmup_requests");
		assertThat(diff)
			.filteredOn(
					row -> !row.field().equals("workload.reasoning") && !row.field().equals("workload.request_params"))
			.allSatisfy(row -> assertThat(row.status()).isEqualTo("same"));
	}

	@Test
	void callsAValueOnOneSideOnlyUnknownAndTriggersNothing() {
		List<ProvenanceDifference> diff = diff(aRun().dataset("random").engineVersion(null).flag("quantization", "fp8"),
				aRun().dataset(null).engineVersion("0.12.0"));

		assertThat(diff).filteredOn(row -> row.status().equals("unknown"))
			.extracting(ProvenanceDifference::field, ProvenanceDifference::baseline, ProvenanceDifference::contender,
					ProvenanceDifference::rule)
			.contains(tuple("engine.version", null, "0.12.0", null),
					tuple("engine.flags.quantization", "fp8", null, null),
					tuple("workload.dataset", "random", null, null));
	}

	@Test
	void namesTheRuleEachDifferenceTriggers() {
		List<ProvenanceDifference> diff = diff(
				aRun().system("A")
					.engine("vllm")
					.flag("dtype", "bf16")
					.flag("max-num-seqs", "64")
					.harness("h1")
					.harnessVersion("1")
					.dataset("random")
					.reasoning("off")
					.requestParams("{\"x\":1}"),
				aRun().system("B")
					.engine("sglang")
					.flag("dtype", "fp16")
					.flag("max-num-seqs", "128")
					.harness("h2")
					.harnessVersion("2")
					.dataset("sharegpt")
					.reasoning("high")
					.requestParams("{\"x\":2}")
					.commit(TestRuns.OTHER_COMMIT));

		assertThat(diff).filteredOn(row -> row.status().equals("differs"))
			.extracting(ProvenanceDifference::field, ProvenanceDifference::rule)
			.containsExactly(tuple("system.name", "system-differs"), tuple("model.commit", "checkpoint-differs"),
					tuple("engine.name", "engine-differs"), tuple("engine.flags.dtype", "critical-flags-differ"),
					tuple("engine.flags.max-num-seqs", "flags-differ"), tuple("harness.name", "harness-differs"),
					tuple("harness.version", "versions-differ"), tuple("workload.dataset", "dataset-differs"),
					tuple("workload.reasoning", "params-differ"), tuple("workload.request_params", "params-differ"));
	}

	@Test
	void matchesFlagNamesWithoutDashesCaseOrUnderscores() {
		List<ProvenanceDifference> diff = diff(aRun().flag("--KV_Cache_Dtype", "fp8"),
				aRun().flag("kv-cache-dtype", "fp8"));

		assertThat(diff).filteredOn(row -> row.field().startsWith("engine.flags.")).singleElement().satisfies(row -> {
			assertThat(row.field()).isEqualTo("engine.flags.KV_Cache_Dtype");
			assertThat(row.status()).isEqualTo("same");
		});
	}

	@Test
	void callsAMissingCommitCheckpointUnknown() {
		assertThat(diff(aRun(), aRun().unpinned())).filteredOn(row -> row.field().equals("model.commit"))
			.singleElement()
			.satisfies(row -> {
				assertThat(row.status()).isEqualTo("unknown");
				assertThat(row.rule()).isEqualTo("checkpoint-unknown");
			});
	}

	@Test
	void pointsAMissingWarmupAtTheRunCheck() {
		assertThat(diff(aRun().warmup(32), aRun().warmup(0)))
			.filteredOn(row -> row.field().equals("workload.warmup_requests"))
			.singleElement()
			.satisfies(row -> assertThat(row.rule()).isEqualTo("no-warmup"));
		assertThat(diff(aRun().warmup(32), aRun().warmup(8)))
			.filteredOn(row -> row.field().equals("workload.warmup_requests"))
			.singleElement()
			.satisfies(row -> assertThat(row.rule()).isNull());
	}

	@Test
	void comparesRequestParametersAsJsonNotAsText() {
		assertThat(diff(aRun().requestParams("{\"a\":1,\"b\":{\"c\":true}}"),
				aRun().requestParams("{\"b\":{\"c\":true},\"a\":1}")))
			.filteredOn(row -> row.field().equals("workload.request_params"))
			.singleElement()
			.satisfies(row -> assertThat(row.status()).isEqualTo("same"));
	}

	private static List<ProvenanceDifference> diff(TestRuns.RunBuilder baseline, TestRuns.RunBuilder contender) {
		return ProvenanceDiff.between(baseline.document().provenance(), contender.document().provenance(),
				CompareSettings.defaults());
	}

}
