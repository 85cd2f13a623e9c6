package dev.parity.reliability.fuzz;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.parity.Fixtures;
import dev.parity.web.Problem;
import dev.parity.ingest.RunDocumentValidator;
import dev.parity.ingest.RunFileRejected;
import dev.parity.ingest.RunIngest;
import dev.parity.ingest.harness.HarnessImporters;
import dev.parity.ingest.harness.InputFile;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The published JSON Schema and the server's validator agree: on every fixture (the seed
 * story, every harness sample converted) both accept, and on mutated documents the
 * schema's verdict (networknt, straight from the published file) and the validator's are
 * the same, except that the validator may refuse more for the reasons a schema cannot
 * state: duplicate params, metrics outside the catalogue, text or numbers that cannot be
 * stored, a reference run without its source, a recorded time that is no instant, a whole
 * number written as 2.0 (JSON Schema counts it whole).
 */
class SchemaAgreementTests {

	/**
	 * This property's share of the fuzz budget (see {@link FuzzCases}): no database, so
	 * cheap.
	 */
	private static final double SHARE = 0.35;

	private static final JsonMapper JSON = JsonMapper.builder().build();

	/** What only the validator knows: the beginnings of its semantic problems. */
	private static final List<String> SEMANTIC = List.of("duplicate params", "unknown metric", "the text holds",
			"the field name holds", "the number", "NaN is not", "is required for a reference run",
			"must be an instant in the years", "must be an ISO-8601 instant", "is in the metric catalogue already",
			"must be a whole number");

	private static final Schema SCHEMA = schema();

	private static final List<byte[]> SEED_STORY = Fixtures.seedStoryNames()
		.stream()
		.map(Fixtures::seedStoryBytes)
		.toList();

	@Test
	void bothAcceptEverySeedStoryDocument() {
		for (String name : Fixtures.seedStoryNames()) {
			JsonNode document = JSON.readTree(Fixtures.seedStoryBytes(name));
			assertThat(SCHEMA.validate(document)).as(name).isEmpty();
			assertThat(RunDocumentValidator.validate(document)).as(name).isEmpty();
		}
	}

	@Test
	void bothAcceptEveryHarnessSampleConverted() {
		for (HarnessImportFuzzTests.Input input : HarnessImportFuzzTests.inputs()) {
			JsonNode document = HarnessImportFuzzTests.withProvenance(HarnessImporters
				.read(input.format(), List.of(new InputFile(input.name(), input.content())), input.mapping())
				.cellsDocument());
			assertThat(SCHEMA.validate(document)).as(input.name()).isEmpty();
			assertThat(RunDocumentValidator.validate(document)).as(input.name()).isEmpty();
		}
	}

	@Test
	void onMutatedDocumentsTheValidatorRefusesWhatTheSchemaRefusesAndMoreOnlyForWhatASchemaCannotSay() {
		FuzzCases.Tally tally = FuzzCases.check("schema agreement", SHARE, (random, outcome) -> {
			Mutation mutation = new Mutator(random).mutate(SEED_STORY.get(random.nextInt(SEED_STORY.size())),
					Mutator.Shape.JSON);
			JsonNode document;
			try {
				document = RunIngest.parse(mutation.bytes());
			}
			catch (RunFileRejected notJson) {
				outcome.count("not JSON");
				return;
			}
			List<Error> schema = SCHEMA.validate(document);
			List<Problem> validator = RunDocumentValidator.validate(document);
			if (!schema.isEmpty()) {
				outcome.count("schema refuses");
				assertThat(validator)
					.as("%s: the schema refuses (%s), the validator must too", mutation.describe(), schema)
					.isNotEmpty();
			}
			else if (!validator.isEmpty()) {
				outcome.count("only the validator refuses");
				assertThat(validator)
					.as("%s: the schema accepts; the validator refuses only for semantic reasons", mutation.describe())
					.allSatisfy(problem -> assertThat(SEMANTIC)
						.anySatisfy(semantic -> assertThat(problem.message()).startsWith(semantic)));
			}
			else {
				outcome.count("both accept");
			}
		});
		if (tally.cases() >= 100) {
			assertThat(tally.get("schema refuses")).as("cases the schema refuses").isPositive();
			assertThat(tally.get("both accept")).as("cases both accept").isPositive();
		}
	}

	/**
	 * The schema as published ({@code /schema/benchmark-run-1.json}), read by networknt
	 * with its defaults.
	 */
	private static Schema schema() {
		try (InputStream in = SchemaAgreementTests.class.getResourceAsStream("/static/schema/benchmark-run-1.json")) {
			return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
				.getSchema(SchemaLocation.of("https://parity.invalid/schema/benchmark-run-1.json"), JSON.readTree(in));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
