package dev.parity.ingest.harness;

import java.util.List;

import dev.parity.ParityTest;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Metrics;
import dev.parity.ingest.HarnessIngest;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.mock.web.MockMultipartFile;
import org.springframework.test.web.servlet.MockMvc;

import static dev.parity.TestUploads.PASSWORD;
import static dev.parity.TestUploads.USER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.multipart;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * An uploaded zip is inflated once per request: detection and the import read the same
 * entries (it used to be inflated by each, twice for an API import and four times for a
 * preview in the upload form).
 */
@ParityTest
class ExpandOnceTests {

	private static final List<InputFile> SWEEP = Samples.ownFolder("vllm-sweep");

	@Autowired
	HarnessIngest ingest;

	@Autowired
	MockMvc mvc;

	@Test
	void detectionAndImportOfAZipInflateEachEntryOnce() {
		InputFile zip = Samples.zip("sweep.zip", SWEEP);
		double before = inflated();

		HarnessIngest.Preview preview = ingest.preview(List.of(zip), null,
				JsonMapper.builder().build().createObjectNode(), null);

		assertThat(preview.format()).isEqualTo(HarnessFormat.VLLM_SWEEP);
		assertThat(preview.document()).isNotNull();
		assertThat(inflated() - before).isEqualTo(SWEEP.size());
	}

	@Test
	void aZipUploadedInTheFormIsInflatedOnceForItsPreview() throws Exception {
		InputFile zip = Samples.zip("sweep.zip", SWEEP);
		double before = inflated();

		mvc.perform(
				multipart("/upload").file(new MockMultipartFile("file", zip.name(), "application/zip", zip.content()))
					.with(httpBasic(USER, PASSWORD))
					.with(csrf()))
			.andExpect(status().isOk());

		assertThat(inflated() - before).isEqualTo(SWEEP.size());
	}

	@Test
	void aZipImportedThroughTheApiIsInflatedOnce() throws Exception {
		InputFile zip = Samples.zip("sweep.zip", SWEEP);
		double before = inflated();

		mvc.perform(multipart("/api/runs/import")
			.file(new MockMultipartFile("files", zip.name(), "application/zip", zip.content()))
			.param("provenance", "{}")
			.with(httpBasic(USER, PASSWORD))).andExpect(status().isBadRequest());

		assertThat(inflated() - before).isEqualTo(SWEEP.size());
	}

	/** The entries inflated so far, as the application's meter counts them. */
	private static double inflated() {
		Counter counter = Metrics.globalRegistry.find(InputFiles.INFLATED_METER).counter();
		return counter == null ? 0 : counter.count();
	}

}
