package dev.parity.compare;

import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

import dev.parity.RecordedStatements;
import dev.parity.TestUploads;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.context.annotation.Import;
import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * A comparison under the default outlier z never reads per-request samples: no statement
 * it makes names the {@code samples} column (the statistics stored at ingest stand for
 * them). Under another outlier z it reads them.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@AutoConfigureMockMvc
@Import(RecordedStatements.class)
class ComparisonWithoutSamplesTests {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final Pattern SAMPLES = Pattern.compile("\\bsamples\\b");

	@Autowired
	MockMvc mvc;

	@Test
	void aComparisonUnderTheDefaultsNamesNoSamplesColumnAndAnotherOutlierZReadsThem() throws Exception {
		String baseline = TestUploads.upload(mvc, withSamples(1.0));
		String contender = TestUploads.upload(mvc, withSamples(1.1));
		String pair = baseline + "..." + contender;

		List<String> defaults = statements("/api/compare/" + pair);
		assertThat(defaults).anySatisfy(sql -> assertThat(sql).contains("from cell"));
		assertThat(defaults).noneSatisfy(sql -> assertThat(sql).containsPattern(SAMPLES));
		assertThat(statements("/compare/" + pair + "?band=0.05&runaway=3")).isNotEmpty()
			.noneSatisfy(sql -> assertThat(sql).containsPattern(SAMPLES));
		assertThat(statements("/api/compare/" + contender + "..." + contender)).isNotEmpty()
			.noneSatisfy(sql -> assertThat(sql).containsPattern(SAMPLES));

		assertThat(statements("/api/compare/" + pair + "?outlier_z=4"))
			.anySatisfy(sql -> assertThat(sql).containsPattern(SAMPLES));
		assertThat(statements("/api/compare/" + pair + "?slo_ttft_s=1.05"))
			.anySatisfy(sql -> assertThat(sql).containsPattern(SAMPLES));
	}

	/**
	 * The statements one uncached request made (on its thread and the comparison's
	 * loading pool), its answer 200.
	 */
	private List<String> statements(String path) throws Exception {
		return RecordedStatements.during(() -> mvc.perform(get(path)).andExpect(status().isOk()))
			.stream()
			.map(RecordedStatements.Statement::sql)
			.filter(Objects::nonNull)
			.toList();
	}

	/** The control run with 12 ttft samples in each cell, scaled. */
	private static byte[] withSamples(double scale) {
		ObjectNode document = (ObjectNode) TestUploads.tree(TestUploads.fresh("run-e-control.json"));
		for (var cell : document.get("cells")) {
			ArrayNode samples = ((ObjectNode) cell).putArray("samples");
			for (int i = 0; i < 12; i++) {
				samples.addObject().put("output_tokens", 500 + i).put("ttft_s", scale * (1 + i / 100.0));
			}
		}
		return JSON.writeValueAsBytes(document);
	}

}
