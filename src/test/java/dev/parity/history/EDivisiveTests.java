package dev.parity.history;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import org.apache.commons.statistics.distribution.TDistribution;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Our E-Divisive against Apache Otava's own outputs: {@code history/otava/expected.json}
 * was written once by {@code history/otava/generate.py} running Otava's code (the commit
 * is named in the file) on Otava's test inputs and on series of our own (known shifts,
 * noise, outliers, constant and very short series).
 */
class EDivisiveTests {

	private static final JsonNode EXPECTED = read();

	static Stream<Arguments> cases() {
		List<Arguments> cases = new ArrayList<>();
		for (JsonNode c : EXPECTED.get("cases")) {
			cases.add(Arguments.of(c.get("name").asString(), c));
		}
		return cases.stream();
	}

	@Test
	void theExpectationsNameTheOtavaCommitTheyCameFrom() {
		assertThat(EXPECTED.get("otava_commit").asString()).matches("[0-9a-f]{40}");
		assertThat(EXPECTED.get("cases").size()).isGreaterThan(30);
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("cases")
	void findsTheChangePointsOtavaFinds(String name, JsonNode c) {
		double[] series = series(c);
		int window = c.get("window").intValue();
		double maxPvalue = c.get("max_pvalue").doubleValue();
		double minMagnitude = c.get("min_magnitude").doubleValue();

		double firstPass = maxPvalue < 0.05 ? maxPvalue * 10 : (maxPvalue < 0.5 ? maxPvalue * 2 : maxPvalue);
		assertThat(EDivisive.split(series, window, firstPass)).extracting(EDivisive.ChangePoint::index)
			.as("weak change points")
			.containsExactlyElementsOf(indexes(c.get("weak_change_points")));

		List<EDivisive.ChangePoint> found = EDivisive.changePoints(series, window, maxPvalue, minMagnitude);
		List<Integer> expectedIndexes = new ArrayList<>();
		c.get("change_points").forEach(p -> expectedIndexes.add(p.get("index").intValue()));
		assertThat(found).extracting(EDivisive.ChangePoint::index).containsExactlyElementsOf(expectedIndexes);
		for (int i = 0; i < found.size(); i++) {
			JsonNode expected = c.get("change_points").get(i);
			EDivisive.Stats stats = found.get(i).stats();
			assertThat(stats.meanBefore()).isCloseTo(expected.get("mean_before").doubleValue(),
					within(1e-9 * scale(expected)));
			assertThat(stats.meanAfter()).isCloseTo(expected.get("mean_after").doubleValue(),
					within(1e-9 * scale(expected)));
			assertThat(stats.stdBefore()).isCloseTo(expected.get("std_before").doubleValue(),
					within(1e-9 * scale(expected)));
			assertThat(stats.stdAfter()).isCloseTo(expected.get("std_after").doubleValue(),
					within(1e-9 * scale(expected)));
			assertThat(stats.magnitude()).isCloseTo(expected.get("magnitude").doubleValue(), within(1e-9));
			double p = expected.get("pvalue").doubleValue();
			assertThat(stats.pvalue()).as("p-value at %d", found.get(i).index())
				.isCloseTo(p, within(1e-9 * p + 1e-300));
		}
	}

	/**
	 * A series that grows a point or a few at a time, each split going on from the split
	 * before (from its first window the new points change), finds exactly what a split
	 * from the start finds, and so what Otava finds.
	 */
	@ParameterizedTest(name = "{0}")
	@MethodSource("cases")
	void aSplitThatGoesOnFromAShorterSeriesFindsWhatOneFromTheStartFinds(String name, JsonNode c) {
		double[] series = series(c);
		int window = c.get("window").intValue();
		double maxPvalue = c.get("max_pvalue").doubleValue();
		double minMagnitude = c.get("min_magnitude").doubleValue();
		Random random = new Random(name.hashCode());
		EDivisive.Resume resume = null;
		for (int length = 1; length <= series.length; length += 1
				+ (random.nextDouble() < 0.2 ? random.nextInt(5) : 0)) {
			double[] prefix = Arrays.copyOf(series, length);
			EDivisive.Found found = EDivisive.changePoints(prefix, window, maxPvalue, minMagnitude, resume);
			assertThat(found.changePoints()).as("%d points", length)
				.isEqualTo(EDivisive.changePoints(prefix, window, maxPvalue, minMagnitude));
			resume = found.resume();
		}
		EDivisive.Found whole = EDivisive.changePoints(series, window, maxPvalue, minMagnitude, resume);
		List<Integer> expected = new ArrayList<>();
		c.get("change_points").forEach(p -> expected.add(p.get("index").intValue()));
		assertThat(whole.changePoints()).extracting(EDivisive.ChangePoint::index).containsExactlyElementsOf(expected);
		// Another series, or other settings: the split starts from the beginning.
		double[] other = series.clone();
		other[0] += 1;
		assertThat(EDivisive.changePoints(other, window, maxPvalue, minMagnitude, resume).changePoints())
			.isEqualTo(EDivisive.changePoints(other, window, maxPvalue, minMagnitude));
		assertThat(EDivisive.changePoints(series, window + 2, maxPvalue, minMagnitude, resume).changePoints())
			.isEqualTo(EDivisive.changePoints(series, window + 2, maxPvalue, minMagnitude));
	}

	@Test
	void theTestIsThePooledStudentTestOnPopulationDeviations() {
		// scipy.stats.ttest_ind_from_stats(1.0, 0.5, 5, 2.0, 0.5, 5) = p 0.0085...
		// (pooled, equal_var=True)
		double p = EDivisive.pooledTTest(1.0, 0.5, 5, 2.0, 0.5, 5);
		double t = -1.0 / Math.sqrt(0.25 * 0.4);
		assertThat(p).isCloseTo(2 * TDistribution.of(8).cumulativeProbability(t), within(1e-15));
		assertThat(EDivisive.pooledTTest(1.0, 0.0, 3, 1.0, 0.0, 3)).isNaN();
		assertThat(EDivisive.pooledTTest(1.0, 0.0, 3, 2.0, 0.0, 3)).isZero();
	}

	private static double scale(JsonNode expected) {
		return Math.max(1.0, Math.max(Math.abs(expected.get("mean_before").doubleValue()),
				Math.abs(expected.get("mean_after").doubleValue())));
	}

	/** The case's series of values. */
	private static double[] series(JsonNode c) {
		double[] series = new double[c.get("series").size()];
		for (int i = 0; i < series.length; i++) {
			series[i] = c.get("series").get(i).doubleValue();
		}
		return series;
	}

	private static List<Integer> indexes(JsonNode array) {
		List<Integer> result = new ArrayList<>();
		array.forEach(n -> result.add(n.intValue()));
		return result;
	}

	private static JsonNode read() {
		try (InputStream in = EDivisiveTests.class.getResourceAsStream("/history/otava/expected.json")) {
			return JsonMapper.builder().build().readTree(in);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
