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
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

class SettingsDisclosureTests {

	private static final JsonMapper MAPPER = JsonMapper.builder().build();

	@Test
	void theDefaultsHaveNothingToDisclose() {
		CompareSettings defaults = CompareSettings.defaults();
		assertThat(SettingsDisclosure.differences(defaults, defaults)).isEmpty();
		// The critical flags are a set: their order says nothing.
		CompareSettings reordered = defaults.withOverrides(Map.of("critical_flags",
				"enable-prefix-caching,dtype,quantization,kv-cache-dtype,speculative-config,num-speculative-tokens"));
		assertThat(SettingsDisclosure.differences(reordered, defaults)).isEmpty();
		assertThat(SettingsDisclosure.sentence(List.of(), 0)).isNull();
	}

	@Test
	void eachSettingThatDiffersIsNamedWithItsValueAndDefault() {
		CompareSettings settings = CompareSettings.defaults()
			.withOverrides(Map.of("output_tolerance", "10", "stat", "p99", "critical_flags", "none"));
		assertThat(SettingsDisclosure.differences(settings, CompareSettings.defaults()))
			.extracting(d -> d.name() + " " + SettingsDisclosure.text(d.value()) + " (default "
					+ SettingsDisclosure.text(d.standard()) + ")")
			.containsExactly("output_tolerance 10 (default 0.1)", "stat p99 (default median)",
					"critical_flags none (default kv-cache-dtype,quantization,dtype,speculative-config,num-speculative-tokens,enable-prefix-caching)");
	}

	@Test
	void loosenedThresholdsCountTheNumbersTheDefaultsGreyThatTheyLetThrough() {
		Run reference = load("reference.json");
		Run c = load("run-c-effort-high.json");
		CompareSettings loosened = CompareSettings.defaults()
			.withOverrides(Map.of("vary", "checkpoint", "output_tolerance", "10"));
		Comparison here = new ComparisonBuilder().compare(reference, c, loosened);
		Comparison underDefaults = new ComparisonBuilder().compare(reference, c, CompareSettings.defaults());

		SettingsDisclosure disclosure = SettingsDisclosure.of(here, CompareSettings.defaults());

		int comparableHere = here.headlines().stream().mapToInt(Headline::comparable).sum();
		int comparableUnderDefaults = underDefaults.headlines().stream().mapToInt(Headline::comparable).sum();
		assertThat(comparableUnderDefaults).isZero();
		assertThat(disclosure.ungreyed()).isPositive().isEqualTo(comparableHere);
		assertThat(SettingsDisclosure.sentence(disclosure.nonDefault()
			.stream()
			.map(d -> new SettingsDisclosure.Shown(d.name(), SettingsDisclosure.text(d.value()),
					SettingsDisclosure.text(d.standard())))
			.toList(), disclosure.ungreyed()))
			.isEqualTo("Thresholds loosened: output_tolerance 10 (default 0.1), vary checkpoint (default system) — "
					+ comparableHere + " cell × metric values that the defaults grey are shown as comparable");
		assertThat(SettingsDisclosure.of(underDefaults, CompareSettings.defaults()))
			.isEqualTo(new SettingsDisclosure(List.of(), 0));
	}

	@Test
	void tightenedSettingsSayTheyDifferWithoutClaimingToLoosen() {
		assertThat(SettingsDisclosure.sentence(List.of(new SettingsDisclosure.Shown("band", "0.05", "0.1")), 0))
			.isEqualTo("Settings differ from the defaults: band 0.05 (default 0.1) — no cell × metric value that the "
					+ "defaults grey is shown as comparable");
	}

	@Test
	void anotherVaryAloneCountsWhatComparingUnderTheDefaultsCounts() throws IOException {
		// The seed story's runs, and the reference on another engine, system, harness and
		// checkpoint: every pair, each way, under every vary.
		List<Run> runs = new java.util.ArrayList<>();
		for (String name : List.of("reference.json", "run-a-thinking-max.json", "run-c-effort-high.json",
				"run-d-effort-off.json", "run-e-control.json")) {
			runs.add(load(name));
		}
		runs.add(changed("engine", "name", "sglang"));
		runs.add(changed("engine", "version", "0.12.0"));
		runs.add(changed("system", "name", "8x H100"));
		runs.add(changed("harness", "name", "other-harness"));
		runs.add(changed("model", "commit", "0".repeat(40)));
		CompareSettings defaults = CompareSettings.defaults();
		int positive = 0;
		for (String vary : CompareSettings.VARIES) {
			CompareSettings settings = defaults.withOverrides(Map.of("vary", vary));
			for (Run baseline : runs) {
				for (Run contender : runs) {
					if (baseline == contender) {
						continue;
					}
					Comparison here = new ComparisonBuilder().compare(baseline, contender, settings);
					Comparison underDefaults = new ComparisonBuilder().compare(baseline, contender, defaults);
					int byComparing = SettingsDisclosure.of(here, underDefaults, defaults).ungreyed();
					assertThat(SettingsDisclosure.of(here, defaults).ungreyed())
						.as("vary=%s, %s against %s", vary, contender.document().title(), baseline.document().title())
						.isEqualTo(byComparing);
					positive += byComparing > 0 ? 1 : 0;
				}
			}
		}
		// Not a count of zeros: another engine, system, harness or checkpoint lets values
		// through.
		assertThat(positive).isGreaterThan(10);
	}

	private static Run changed(String section, String field, String value) throws IOException {
		Path file = Fixtures.given().resolve("seed-story").resolve("reference.json");
		tools.jackson.databind.node.ObjectNode document = (tools.jackson.databind.node.ObjectNode) MAPPER
			.readTree(Files.readAllBytes(file));
		((tools.jackson.databind.node.ObjectNode) document.get(section)).put(field, value);
		document.put("title", "reference with " + section + "." + field + " " + value);
		return new Run(RunId.random(), RunDocumentReader.read(document), "fp", Instant.now(), "test", List.of());
	}

	private static Run load(String name) {
		Path file = Fixtures.given().resolve("seed-story").resolve(name);
		try {
			return new Run(RunId.random(), RunDocumentReader.read(MAPPER.readTree(Files.readAllBytes(file))), "fp",
					Instant.now(), "test", List.of());
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
