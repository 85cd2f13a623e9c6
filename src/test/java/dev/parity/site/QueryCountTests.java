package dev.parity.site;

import dev.parity.RecordedStatements;
import dev.parity.TestUploads;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.context.annotation.Import;
import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * A comparison (page or API) takes the same number of SQL statements for 20 cells as for
 * 400: no query per cell.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@AutoConfigureMockMvc
@Import(RecordedStatements.class)
class QueryCountTests {

	@Autowired
	MockMvc mvc;

	@Test
	void comparingTakesAFixedNumberOfStatementsWhateverTheCellCount() throws Exception {
		String smallA = TestUploads.upload(mvc, grid(4, 5, "a"));
		String smallB = TestUploads.upload(mvc, grid(4, 5, "b"));
		String largeA = TestUploads.upload(mvc, grid(20, 20, "a"));
		String largeB = TestUploads.upload(mvc, grid(20, 20, "b"));
		for (String url : new String[] { "/api/compare/", "/compare/" }) {
			int small = statements(url + smallA + "..." + smallB);
			int large = statements(url + largeA + "..." + largeB);
			assertThat(large).as(url + ": 400 cells vs 20 cells").isEqualTo(small);
			assertThat(small).as(url + ": statements recorded").isPositive().isLessThan(20);
		}
		assertThat(statements("/runs/" + largeA)).isEqualTo(statements("/runs/" + smallA));
	}

	/** The statements a request made on its own thread. */
	private int statements(String url) throws Exception {
		return (int) RecordedStatements.during(() -> mvc.perform(get(url)).andExpect(status().isOk()))
			.stream()
			.filter(RecordedStatements.Statement::onRequestThread)
			.count();
	}

	/**
	 * A run of prompts × concurrencies cells with a few samples each (as the light page's
	 * tests make them).
	 */
	private static byte[] grid(int prompts, int concurrencies, String variant) {
		return LightComparisonPageTests.grid(prompts, concurrencies, variant, "query count");
	}

}
