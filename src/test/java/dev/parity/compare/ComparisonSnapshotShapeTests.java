package dev.parity.compare;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import dev.parity.Fixtures;
import dev.parity.run.Run;
import dev.parity.run.RunDocumentReader;
import dev.parity.run.RunId;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The snapshot reads its own JSON back to an equal claim, for every contender of the seed
 * story, under the defaults and with loosened settings, objectives and fixed params (its
 * bytes are {@code JsonAnswersTests}' concern).
 */
class ComparisonSnapshotShapeTests {

	private static final JsonMapper MAPPER = JsonMapper.builder().build();

	private static final Path FIXTURES = Fixtures.given().resolve("seed-story");

	@ParameterizedTest
	@ValueSource(strings = { "run-a-thinking-max.json", "run-b-effort-low.json", "run-c-effort-high.json",
			"run-d-effort-off.json", "run-e-control.json", "probe-reasoning-levers.json" })
	void readsItsOwnJsonBackToAnEqualClaim(String contender) {
		Run baseline = load("reference.json");
		Run other = load(contender);
		for (CompareSettings settings : List.of(CompareSettings.defaults(), CompareSettings.defaults()
			.withOverrides(Map.of("band", "0.05", "output_tolerance", "10", "slo_ttft_s", "2")))) {
			Comparison comparison = new ComparisonBuilder().compare(baseline, other, settings);
			ComparisonSnapshot typed = ComparisonSnapshot.of(comparison, CompareSettings.defaults(), MAPPER);

			String written = MAPPER.writeValueAsString(typed);
			ComparisonSnapshot read = ComparisonSnapshot.read(MAPPER.readTree(written), MAPPER);
			assertThat(read.claim()).isEqualTo(typed.claim());
			assertThat(MAPPER.writeValueAsString(read)).isEqualTo(written);
			assertThat(read.settingsNotice(CompareSettings.defaults()))
				.isEqualTo(typed.settingsNotice(CompareSettings.defaults()));
			assertThat(written.contains("\"goodput\":")).isEqualTo(settings.slo().any());
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { "run-b-effort-low.json" })
	void aSideFixingParamsSaysWhich(String contender) {
		Run baseline = load("reference.json");
		Run other = load(contender);
		FixedParams fixed = FixedParams.parse(List.of("concurrency=1"));
		Comparison comparison = new ComparisonBuilder().compare(List.of(baseline), List.of(other),
				CompareSettings.defaults(), BootstrapMedians.NONE, fixed, FixedParams.NONE);
		ComparisonSnapshot typed = ComparisonSnapshot.of(comparison, CompareSettings.defaults(), fixed,
				FixedParams.NONE, MAPPER);
		JsonNode json = MAPPER.valueToTree(typed);

		assertThat(json.get("baseline").get("fixed").toString()).isEqualTo("{\"concurrency\":\"1\"}");
		assertThat(json.get("contender").has("fixed")).isFalse();
	}

	private static Run load(String name) {
		try {
			JsonNode document = MAPPER.readTree(Files.readAllBytes(FIXTURES.resolve(name)));
			return new Run(RunId.random(), RunDocumentReader.read(document), "fp", Instant.now(), "test", List.of());
		}
		catch (IOException ex) {
			throw new IllegalStateException("cannot read fixture " + name, ex);
		}
	}

}
