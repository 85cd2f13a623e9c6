package dev.parity.ingest.harness;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import tools.jackson.core.JsonParser;
import tools.jackson.core.json.JsonReadFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Reading JSON within limits on values, array length and depth: the same trees, and a
 * refusal naming the limit.
 */
class JsonBudgetTests {

	private static final JsonMapper JSON = JsonMapper.builder()
		.enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
		.build();

	@Test
	void buildsTheTreeJacksonBuildsForEveryJsonFileOfTheTests() throws URISyntaxException, IOException {
		Path resources = Path.of(JsonBudgetTests.class.getResource("/harness").toURI()).getParent();
		List<Path> files;
		try (Stream<Path> walk = Files.walk(resources)) {
			files = walk.filter(path -> path.toString().endsWith(".json")).toList();
		}
		assertThat(files).hasSizeGreaterThan(20);
		for (Path file : files) {
			byte[] bytes = Files.readAllBytes(file);
			JsonNode expected;
			try {
				expected = JSON.readTree(bytes);
			}
			catch (RuntimeException notJson) {
				continue;
			}
			assertThat(read(bytes)).as(file.toString()).isEqualTo(expected);
		}
	}

	@Test
	void numbersOfEveryKindAreTheNodesJacksonMakes() {
		String text = "{\"i\": 1, \"l\": 12345678901, \"b\": 1" + "0".repeat(40)
				+ ", \"d\": 1.5, \"e\": 1e400, \"n\": NaN,"
				+ " \"t\": true, \"f\": false, \"z\": null, \"s\": \"x\", \"a\": [], \"o\": {}, \"dup\": 1, \"dup\": 2}";
		byte[] bytes = text.getBytes(StandardCharsets.UTF_8);

		JsonNode read = read(bytes);

		assertThat(read).isEqualTo(JSON.readTree(bytes));
		assertThat(read.get("b").isBigInteger()).isTrue();
		assertThat(read.get("l").isLong()).isTrue();
	}

	@Test
	void valuesBeyondTheLimitAreRefusedNamingItBeforeTheTreeIsBuilt() {
		JsonBudget budget = new JsonBudget(new JsonLimits(5, 100, 10));

		assertThatThrownBy(() -> check(budget, "[{}, {}, {}, {}, {}]")).isInstanceOf(ImportTooLarge.class)
			.hasMessage(
					"a.json: more than 5 JSON values in the upload, all files together (parity.limits.max-json-nodes);"
							+ " upload fewer or smaller files");
	}

	@Test
	void anArrayBeyondItsLimitAndNestingBeyondTheDepthAreRefusedSayingWhere() {
		assertThatThrownBy(() -> check(new JsonBudget(new JsonLimits(100, 3, 10)), "{\"a\": [1, 2, 3, 4]}"))
			.isInstanceOf(ImportTooLarge.class)
			.hasMessage(
					"a.json: an array of more than 3 values at line 1, column 17 (parity.limits.max-json-array-length)");
		assertThatThrownBy(() -> check(new JsonBudget(new JsonLimits(100, 100, 3)), "[[[[1]]]]"))
			.isInstanceOf(ImportTooLarge.class)
			.hasMessage("a.json: nested more than 3 levels deep at line 1, column 4 (parity.limits.max-json-depth)");
		// An object's properties are not an array.
		check(new JsonBudget(new JsonLimits(100, 1, 10)), "{\"a\": 1, \"b\": 2, \"c\": 3}");
	}

	@Test
	void theFilesOfOneUploadShareTheBudgetAndAFailedReadingGivesItsCountBack() {
		String lines = "{\"a\": 1}\n{\"a\": 2}\n";
		UploadedFiles files = UploadedFiles.expand(
				List.of(InputFile.of("one.jsonl", lines), InputFile.of("two.jsonl", lines)),
				new JsonLimits(8, 100, 10));

		// Each file is read whole first (and fails: two values), then line by line: 4
		// values each, 8 together.
		assertThat(files.parsed().get(0).jsonValues()).hasSize(2);
		assertThat(files.parsed().get(1).jsonValues()).hasSize(2);

		UploadedFiles three = UploadedFiles.expand(List.of(InputFile.of("one.jsonl", lines),
				InputFile.of("two.jsonl", lines), InputFile.of("three.json", "[1]")), new JsonLimits(8, 100, 10));
		three.parsed().get(0).jsonValues();
		three.parsed().get(1).jsonValues();
		assertThatThrownBy(() -> three.parsed().get(2).jsonOrNull()).isInstanceOf(ImportTooLarge.class)
			.hasMessageStartingWith("three.json: more than 8 JSON values in the upload");
	}

	private static JsonNode read(byte[] bytes) {
		try (JsonParser parser = JSON.createParser(bytes)) {
			return new JsonBudget(JsonLimits.DEFAULT).read(parser, "test");
		}
	}

	private static void check(JsonBudget budget, String text) {
		try (JsonParser parser = JSON.createParser(text)) {
			budget.check(parser, "a.json");
		}
	}

}
