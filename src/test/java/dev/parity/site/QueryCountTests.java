package dev.parity.site;

import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import dev.parity.TestUploads;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.datasource.DelegatingDataSource;
import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/** A comparison (page or API) takes the same number of SQL statements for 20 cells as for 400: no query per cell. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@AutoConfigureMockMvc
class QueryCountTests {

	static final AtomicInteger STATEMENTS = new AtomicInteger();

	/** The thread whose statements count: the request's (MockMvc runs it on the test's thread), not background work. */
	static volatile Thread counted;

	@TestConfiguration
	static class CountingDataSource {

		@Bean
		static BeanPostProcessor countStatements() {
			return new BeanPostProcessor() {
				@Override
				public Object postProcessAfterInitialization(Object bean, String name) {
					if (!(bean instanceof DataSource dataSource) || !name.equals("dataSource")) {
						return bean;
					}
					return new DelegatingDataSource(dataSource) {
						@Override
						public Connection getConnection() throws java.sql.SQLException {
							Connection connection = super.getConnection();
							return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] { Connection.class },
									(proxy, method, args) -> {
										if (method.getName().equals("prepareStatement") || method.getName().equals("createStatement")
												|| method.getName().equals("prepareCall")) {
											if (Thread.currentThread() == counted) {
												STATEMENTS.incrementAndGet();
											}
										}
										try {
											return method.invoke(connection, args);
										}
										catch (java.lang.reflect.InvocationTargetException ex) {
											throw ex.getCause();
										}
									});
						}
					};
				}
			};
		}

	}

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
			assertThat(small).as(url).isLessThan(20);
		}
		assertThat(statements("/runs/" + largeA)).isEqualTo(statements("/runs/" + smallA));
	}

	private int statements(String url) throws Exception {
		counted = Thread.currentThread();
		int before = STATEMENTS.get();
		mvc.perform(get(url)).andExpect(status().isOk());
		return STATEMENTS.get() - before;
	}

	/** A run of prompts × concurrencies cells with a few samples each. */
	private static byte[] grid(int prompts, int concurrencies, String variant) {
		ObjectNode document = (ObjectNode) TestUploads.tree(TestUploads.fresh("run-e-control.json"));
		document.put("title", document.get("title").asString() + " " + variant + " " + prompts * concurrencies);
		ArrayNode cells = document.putArray("cells");
		int order = 1;
		for (int p = 0; p < prompts; p++) {
			for (int c = 0; c < concurrencies; c++) {
				ObjectNode cell = cells.addObject();
				cell.putObject("params").put("prompt_tokens", 256 * (p + 1)).put("concurrency", c + 1);
				cell.put("order", order++);
				cell.putObject("requests").put("completed", 4).put("failed", 0).put("cancelled", 0);
				cell.putObject("output_tokens").put("median", 512).put("min", 510).put("max", 515);
				cell.putObject("metrics").put("ttft_s", 0.1 * (p + 1) + (variant.equals("a") ? 0 : 0.01))
					.put("decode_tps", 70 - c);
				ArrayNode samples = cell.putArray("samples");
				for (int s = 0; s < 4; s++) {
					samples.addObject().put("status", "ok").put("output_tokens", 512).put("ttft_s", 0.1 * (p + 1));
				}
			}
		}
		return document.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
	}

}
