package dev.parity.run;

import java.time.Instant;
import java.util.List;

import dev.parity.Fixtures;
import dev.parity.run.Run;
import dev.parity.run.RunDocumentReader;
import dev.parity.run.RunId;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The commands that would run a seed-story run again, rebuilt from what its document
 * records.
 */
class RerunCommandsTests {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	@Test
	void theControlRunsServeAndBenchCommands() {
		RerunCommands commands = RerunCommands.of(run(document("run-e-control.json")));

		assertThat(commands.serve()).isEqualTo("""
				# vllm 0.11.2
				vllm serve example-org/moe-284b \\
				    --revision 4f2a9c1e7b3d5a0f8c6e2d1b9a7f5e3c1d0b8a6f \\
				    --tensor-parallel-size 2 \\
				    --max-model-len 1048576 \\
				    --max-num-batched-tokens 8168 \\
				    --kv-cache-dtype fp8""");
		assertThat(commands.bench()).isEqualTo(
				"""
						# reference-harness 1.4.2
						# workload: dataset random, 512 output tokens per request, request params {"chat_template_kwargs":{"thinking":false}}, 32 warm-up requests
						# grid: concurrency 1, 2, 4, 8; prompt_tokens 280, 8192, 32768, 65536, 131072
						bench --grid prompt=280,8192,32768,65536,131072 concurrency=1,2,4,8 --output-tokens 512""");
		assertThat(commands.benchRecorded()).isTrue();
		assertThat(commands.missing()).isEmpty();
	}

	@Test
	void anUnpinnedRunSaysSoAndAFlagValueIsQuotedForTheShell() {
		ObjectNode document = document("run-b-effort-low.json");
		((ObjectNode) document.get("engine").get("flags")).put("speculative-config", "{\"method\": \"ngram\"}");
		((ObjectNode) document.get("engine").get("flags")).put("enforce-eager", "true");

		String serve = RerunCommands.of(run(document)).serve();

		assertThat(serve).contains("# the model is not pinned: \"main\" may resolve to other weights now")
			.contains("--revision main")
			.contains("--speculative-config '{\"method\": \"ngram\"}'")
			.endsWith("--enforce-eager")
			.doesNotContain("--enforce-eager true");
	}

	@Test
	void anUnknownEngineAndAMissingHarnessCommandAreSaidNotGuessed() {
		ObjectNode document = document("run-e-control.json");
		((ObjectNode) document.get("engine")).put("name", "in-house-server");
		((ObjectNode) document.get("harness")).remove("command");

		RerunCommands commands = RerunCommands.of(run(document));

		assertThat(commands.serve()).isNull();
		assertThat(commands.benchRecorded()).isFalse();
		assertThat(commands.bench()).startsWith("# reference-harness 1.4.2\n# workload:").doesNotContain("\nbench ");
		assertThat(commands.missing())
			.anySatisfy(m -> assertThat(m).contains("in-house-server").contains("--tensor-parallel-size 2"))
			.anySatisfy(m -> assertThat(m).contains("does not record its harness command"));
	}

	private static ObjectNode document(String name) {
		return (ObjectNode) JSON.readTree(Fixtures.seedStoryBytes(name));
	}

	private static Run run(ObjectNode document) {
		return new Run(RunId.random(), RunDocumentReader.read(document), "fp", Instant.now(), "test", List.of());
	}

}
