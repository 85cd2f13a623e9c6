package dev.parity.ingest.harness;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/** The environment read from collect-env, nvidia-smi and pip freeze files uploaded beside a harness's output. */
class EnvironmentFilesTests {

	private static JsonNode environment(InputFile... extra) {
		List<InputFile> files = new java.util.ArrayList<>(List.of(Samples.own("vllm-bench-serve-partial-failure.json")));
		files.addAll(List.of(extra));
		return HarnessImporters.read(HarnessFormat.VLLM, files, null).cellsDocument().path("environment");
	}

	@Test
	void readsTheSectionedCollectEnvLayout() {
		JsonNode environment = environment(Samples.own("environment/collect-env.txt"));

		assertThat(environment.get("gpu").asString()).isEqualTo("NVIDIA H100 80GB HBM3");
		assertThat(environment.get("gpu_count").asInt()).isEqualTo(2);
		assertThat(environment.get("driver").asString()).isEqualTo("570.133.20");
		assertThat(environment.get("cuda").asString()).isEqualTo("12.8.93");
		assertThat(environment.get("os").asString()).isEqualTo("Ubuntu 22.04.5 LTS");
		assertThat(environment.get("kernel").asString()).isEqualTo("5.15.0-144-generic");
		assertThat(environment.get("python_packages").get("torch").asString()).isEqualTo("2.8.0+cu128");
		assertThat(environment.get("python_packages").get("nvidia-nccl-cu12").asString()).isEqualTo("2.27.3");
	}

	@Test
	void readsTheLegacyCollectEnvLayout() {
		JsonNode environment = environment(Samples.own("environment/collect-env-legacy.txt"));

		assertThat(environment.get("gpu").asString()).isEqualTo("NVIDIA L40S");
		assertThat(environment.get("gpu_count").asInt()).isEqualTo(2);
		assertThat(environment.get("driver").asString()).isEqualTo("550.90.07");
		assertThat(environment.get("cuda").asString()).isEqualTo("12.4.131");
		assertThat(environment.get("kernel").asString()).isEqualTo("5.15.0-107-generic");
		assertThat(environment.get("os").asString()).isEqualTo("Ubuntu 20.04.6 LTS");
	}

	@Test
	void nvidiaSmiAndPipFreezeTakePrecedenceForWhatTheyKnow() {
		JsonNode environment = environment(Samples.own("environment/collect-env-legacy.txt"),
				Samples.own("environment/nvidia-smi-q-x.xml"), Samples.own("environment/pip-freeze.txt"));

		assertThat(environment.get("gpu").asString()).isEqualTo("NVIDIA H100 80GB HBM3");
		assertThat(environment.get("driver").asString()).isEqualTo("570.133.20");
		assertThat(environment.get("cuda").asString()).isEqualTo("12.8");
		assertThat(environment.get("kernel").asString()).isEqualTo("5.15.0-107-generic");
		assertThat(environment.get("python_packages").get("torch").asString()).isEqualTo("2.8.0");
		assertThat(environment.get("python_packages").get("xformers").asString()).isEqualTo("0.0.32.post1");
	}

	@Test
	void theImportSaysWhichFilesGaveTheEnvironment() {
		List<InputFile> files = List.of(Samples.own("vllm-bench-serve-partial-failure.json"),
				Samples.own("environment/nvidia-smi-q-x.xml"));

		assertThat(HarnessImporters.read(HarnessFormat.VLLM, files, null).notes())
			.anyMatch(note -> note.equals("environment read from nvidia-smi-q-x.xml (nvidia-smi -q -x)"));
	}

	@Test
	void withoutEnvironmentFilesThereIsNoEnvironment() {
		assertThat(environment().isMissingNode()).isTrue();
	}

	@Test
	void anExternalEntityInTheXmlIsNeverRead() {
		String hostile = "<?xml version=\"1.0\"?><!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]>"
				+ "<nvidia_smi_log><driver_version>&e;</driver_version></nvidia_smi_log>";
		InputFile file = new InputFile("nvidia-smi.xml", hostile.getBytes(StandardCharsets.UTF_8));

		try {
			JsonNode environment = environment(file);
			assertThat(environment.path("driver").asString("")).doesNotContain("root:");
		}
		catch (ImportRejected rejected) {
			assertThat(rejected.getMessage()).startsWith("nvidia-smi.xml: not readable as nvidia-smi -q -x XML");
		}
	}

	@Test
	void pipFreezeIsRecognisedOnlyWhenEveryLineIsAPin() {
		assertThat(EnvironmentFiles.isPipFreeze("torch==2.8.0\nvllm==0.10.2\n")).isTrue();
		assertThat(EnvironmentFiles.isPipFreeze("prompt,ttft\n1024,0.9\n")).isFalse();
	}

}
