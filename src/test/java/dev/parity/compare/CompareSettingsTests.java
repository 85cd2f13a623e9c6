package dev.parity.compare;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class CompareSettingsTests {

	@Test
	void defaultsAreThoseOfTheProduct() {
		CompareSettings defaults = CompareSettings.defaults();

		assertThat(defaults.asMap()).containsExactly(Map.entry("band", 0.10), Map.entry("output_tolerance", 0.10),
				Map.entry("failure_tolerance", 0.0), Map.entry("runaway", 10.0), Map.entry("spike", 2.0),
				Map.entry("unstable_cv", 0.5), Map.entry("skew", 2.0), Map.entry("outlier_z", 5.0),
				Map.entry("warning_factor", 10.0), Map.entry("implausible", 5.0), Map.entry("stat", "median"),
				Map.entry("vary", "system"), Map.entry("critical_flags", List.of("kv-cache-dtype", "quantization",
						"dtype", "speculative-config", "num-speculative-tokens", "enable-prefix-caching")));
	}

	@Test
	void appliesTheUrlsParameters() {
		Map<String, String> query = new LinkedHashMap<>();
		query.put("band", "0.05");
		query.put("output_tolerance", "0.2");
		query.put("failure_tolerance", "0.25");
		query.put("runaway", "20");
		query.put("spike", "3");
		query.put("unstable_cv", "0.8");
		query.put("skew", "4");
		query.put("outlier_z", "3.5");
		query.put("warning_factor", "8");
		query.put("implausible", "10");
		query.put("stat", "P99");
		query.put("vary", "checkpoint");
		query.put("critical_flags", "--KV_Cache_Dtype, quantization");

		CompareSettings settings = CompareSettings.defaults().withOverrides(query);

		assertThat(settings).isEqualTo(new CompareSettings(0.05, 0.2, 0.25, 20, 3, 0.8, 4, 3.5, 8, 10, "p99",
				"checkpoint", Set.of("kv-cache-dtype", "quantization")));
	}

	@Test
	void ignoresUnknownNamesAndBlankValues() {
		assertThat(CompareSettings.defaults().withOverrides(Map.of("page", "2", "band", " ", "stat", "")))
			.isEqualTo(CompareSettings.defaults());
	}

	@Test
	void acceptsNoneForNoCriticalFlag() {
		assertThat(CompareSettings.defaults().withOverrides(Map.of("critical_flags", "none")).criticalFlags())
			.isEmpty();
	}

	@Test
	void acceptsPercentilesWithDecimals() {
		assertThat(CompareSettings.defaults().withOverrides(Map.of("stat", "p99.9")).stat()).isEqualTo("p99.9");
		assertThat(CompareSettings.defaults().withOverrides(Map.of("stat", "p1")).stat()).isEqualTo("p1");
	}

	@Test
	void namesTheParameterAndTheProblem() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> CompareSettings.defaults().withOverrides(Map.of("band", "abc")))
			.withMessage("band must be a number ≥ 0, not 'abc'");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> CompareSettings.defaults().withOverrides(Map.of("output_tolerance", "-0.1")))
			.withMessage("output_tolerance must be a number ≥ 0, not '-0.1'");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> CompareSettings.defaults().withOverrides(Map.of("failure_tolerance", "2")))
			.withMessage("failure_tolerance must be a number from 0 to 1, not '2'");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> CompareSettings.defaults().withOverrides(Map.of("runaway", "0.5")))
			.withMessage("runaway must be a number ≥ 1, not '0.5'");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> CompareSettings.defaults().withOverrides(Map.of("implausible", "Infinity")))
			.withMessage("implausible must be a number ≥ 1, not 'Infinity'");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> CompareSettings.defaults().withOverrides(Map.of("skew", "NaN")))
			.withMessage("skew must be a number ≥ 1, not 'NaN'");
	}

	@Test
	void rejectsAnUnknownStatistic() {
		for (String stat : List.of("average", "p100", "p0", "p", "mean,median")) {
			assertThatIllegalArgumentException()
				.isThrownBy(() -> CompareSettings.defaults().withOverrides(Map.of("stat", stat)))
				.withMessage("stat must be median, mean, std, min, max or a percentile p1 … p99, not '" + stat + "'");
		}
	}

	@Test
	void rejectsAnUnknownVariable() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> CompareSettings.defaults().withOverrides(Map.of("vary", "gpu")))
			.withMessage(
					"vary must be one of system, engine, flags, checkpoint, dataset, harness, environment, not 'gpu'");
	}

	@Test
	void checksValuesBuiltInCodeToo() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new CompareSettings(-1, 0.1, 0, 10, 2, 0.5, 2, 5, 10, 5, "median", "system", Set.of()))
			.withMessage("band must be a number ≥ 0, not '−1'");
	}

	@Test
	void roundTripsThroughItsMap() {
		CompareSettings settings = CompareSettings.defaults()
			.withOverrides(Map.of("band", "0.05", "critical_flags", "dtype"));
		Map<String, String> query = new LinkedHashMap<>();
		settings.asMap()
			.forEach((name, value) -> query.put(name, value instanceof List<?> list
					? String.join(",", list.stream().map(Object::toString).toList()) : value.toString()));

		assertThat(CompareSettings.defaults().withOverrides(query)).isEqualTo(settings);
	}

}
