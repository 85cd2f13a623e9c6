package dev.parity.compare;

import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.regex.Pattern;

import javax.sql.DataSource;

import dev.parity.TestUploads;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;
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

/**
 * A comparison under the default outlier z never reads per-request samples: no statement it makes names the
 * {@code samples} column (the statistics stored at ingest stand for them). Under another outlier z it reads them.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@AutoConfigureMockMvc
class ComparisonWithoutSamplesTests {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final Pattern SAMPLES = Pattern.compile("\\bsamples\\b");

	/** The statements of the request's thread and of the comparison's loading pool, as prepared. */
	static final Queue<String> STATEMENTS = new ConcurrentLinkedQueue<>();

	static volatile Thread counted;

	@TestConfiguration
	static class RecordingDataSource {

		@Bean
		static BeanPostProcessor recordStatements() {
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
							return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(),
									new Class<?>[] { Connection.class }, (proxy, method, args) -> {
										Thread thread = Thread.currentThread();
										boolean ours = thread == counted || thread.getName().startsWith("comparison-loader");
										if (ours && args != null && args.length > 0 && args[0] instanceof String sql
												&& method.getName().startsWith("prepare")) {
											STATEMENTS.add(sql);
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

	/** The statements one uncached request made, its answer 200. */
	private List<String> statements(String path) throws Exception {
		STATEMENTS.clear();
		counted = Thread.currentThread();
		try {
			mvc.perform(get(path)).andExpect(status().isOk());
		}
		finally {
			counted = null;
		}
		return List.copyOf(STATEMENTS);
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
