package dev.parity.ingest.harness;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * The environment read from collect-env, nvidia-smi and pip freeze files uploaded beside
 * a harness's output.
 */
class EnvironmentFilesTests {

	private static JsonNode environment(InputFile... extra) {
		List<InputFile> files = new ArrayList<>(List.of(Samples.own("vllm-bench-serve-partial-failure.json")));
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

	/**
	 * A collect-env file with lines of a million characters that the old regular
	 * expressions took minutes over.
	 */
	static InputFile collectEnvWithLongLines() {
		String text = new String(Samples.own("environment/collect-env-legacy.txt").content(), StandardCharsets.UTF_8);
		String longLines = "A" + " ".repeat(999_999) + "\n" + "OS: Ubuntu 20.04.6 LTS" + " ".repeat(999_000)
				+ "(x86_64\n" + "B" + " (".repeat(499_999) + "\n";
		return new InputFile("collect-env.txt", (longLines + text).getBytes(StandardCharsets.UTF_8));
	}

	@Test
	void linesOfAMillionCharactersAreReadInOnePass() {
		// Only a guard against hanging: the old expressions needed minutes here, one pass
		// takes milliseconds.
		JsonNode environment = assertTimeoutPreemptively(Duration.ofSeconds(10),
				() -> environment(collectEnvWithLongLines()));

		assertThat(environment.get("driver").asString()).isEqualTo("550.90.07");
		assertThat(environment.get("os").asString()).isEqualTo("Ubuntu 20.04.6 LTS");
	}

	@Test
	void fieldsAreReadAsTheRegularExpressionReadThem() {
		Pattern field = Pattern.compile("^([A-Za-z][A-Za-z0-9 _./()-]*?)\\s*:\\s?(.*)$");
		List<String> lines = List.of("OS: Ubuntu", "OS : Ubuntu", "Nvidia driver version      : 550.90.07", "OS:",
				"OS:\tx", "A B: c", "A\tB: c", "A\t: c", "1A: x", ": x", "A", "A:b:c", "A (x86) : y", "A.b/c-d_e: v ",
				"Ä: x", "A é: x", "A\u000B: x", "[pip3] torch==2.8", "GPU 0: NVIDIA H100", "  GPU 0: H100",
				"A :  two spaces");
		for (String line : lines) {
			Matcher matcher = field.matcher(line);
			String[] read = EnvironmentFiles.field(line);
			if (matcher.matches()) {
				assertThat(read).as(line).containsExactly(matcher.group(1).strip(), matcher.group(2).strip());
			}
			else {
				assertThat(read).as(line).isNull();
			}
		}
	}

	@Test
	void theOsLosesItsLastParenthesesAsTheRegularExpressionTookThem() {
		for (String os : List.of("Ubuntu 22.04.4 LTS (x86_64)", "Ubuntu (a) (b)", "Ubuntu (a (b)", "Ubuntu", "(x)",
				"Ubuntu (x86_64", "Ubuntu x86_64)", "Ubuntu \t (x)", "Ubuntu ()", "Ubuntu (a) b)", "a)(b)", ")")) {
			assertThat(EnvironmentFiles.withoutLastParentheses(os)).as(os)
				.isEqualTo(os.replaceFirst("\\s*\\([^)]*\\)$", ""));
		}
	}

}
