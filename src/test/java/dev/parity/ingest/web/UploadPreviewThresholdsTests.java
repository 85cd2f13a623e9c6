package dev.parity.ingest.web;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.parity.ParityTest;
import dev.parity.compare.ThresholdDefaults;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.mock.web.MockMultipartFile;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.web.servlet.MockMvc;

import static dev.parity.TestUploads.PASSWORD;
import static dev.parity.TestUploads.USER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.multipart;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

/**
 * The upload preview's "Flags that will fire" are the run page's: under the configured
 * thresholds, not src/docs/design/PRODUCT.md's defaults. Here a server tolerates a third
 * of a cell's requests failing, so a vLLM result with 2 of 6 failed is not flagged for
 * failures, as its run page would not flag it.
 */
@ParityTest
@TestPropertySource(properties = "parity.thresholds.failure_tolerance=0.5")
class UploadPreviewThresholdsTests {

	@Autowired
	MockMvc mvc;

	@Autowired
	ThresholdDefaults thresholds;

	@Test
	void thePreviewFlagsWithTheConfiguredThresholds() throws Exception {
		String preview = preview(mvc);

		assertThat(preview).as("the preview of the vLLM result")
			.contains("id=\"preview-cells\"")
			.doesNotContain("problems: nothing can be stored yet");
		assertThat(preview).doesNotContain("failures on 1 cell");
		assertThat(thresholds.settings().failureTolerance()).isEqualTo(0.5);
	}

	static String preview(MockMvc mvc) throws Exception {
		byte[] result;
		try (InputStream in = UploadPreviewThresholdsTests.class
			.getResourceAsStream("/harness/vllm-bench-serve-partial-failure.json")) {
			result = in.readAllBytes();
		}
		String first = mvc
			.perform(multipart("/upload")
				.file(new MockMultipartFile("file", "vllm-bench-serve-partial-failure.json", "application/json",
						result))
				.with(httpBasic(USER, PASSWORD))
				.with(csrf()))
			.andReturn()
			.getResponse()
			.getContentAsString(StandardCharsets.UTF_8);
		Matcher token = Pattern.compile("name=\"token\" value=\"([^\"]+)\"").matcher(first);
		assertThat(token.find()).as("the held upload's token").isTrue();
		// The provenance the harness never recorded, as the form asks for it: then the
		// preview has a run to check.
		return mvc
			.perform(post("/upload/import").with(httpBasic(USER, PASSWORD))
				.with(csrf())
				.param("token", token.group(1))
				.param("action", "preview")
				.param("format", "vllm")
				.param("title", "Partial failure " + UUID.randomUUID())
				.param("role", "measured")
				.param("systemName", "1x L40S")
				.param("modelRepo", "Qwen/Qwen2.5-7B-Instruct")
				.param("engineName", "vllm")
				.param("harnessName", "vllm bench serve"))
			.andReturn()
			.getResponse()
			.getContentAsString(StandardCharsets.UTF_8);
	}

}
