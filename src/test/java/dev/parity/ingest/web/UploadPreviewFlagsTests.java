package dev.parity.ingest.web;

import dev.parity.ParityTest;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Under src/docs/design/PRODUCT.md's thresholds (no failed request tolerated) the upload
 * preview of a vLLM result with 2 of 6 requests failed says the failures check will fire;
 * {@link UploadPreviewThresholdsTests} shows a configured tolerance removes it.
 */
@ParityTest
class UploadPreviewFlagsTests {

	@Autowired
	MockMvc mvc;

	@Test
	void thePreviewSaysWhichFlagsWillFire() throws Exception {
		String preview = UploadPreviewThresholdsTests.preview(mvc);

		assertThat(preview).contains("id=\"preview-flags\"").contains("failures on 1 cell");
	}

}
