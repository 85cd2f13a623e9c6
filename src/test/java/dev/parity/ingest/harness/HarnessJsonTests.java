package dev.parity.ingest.harness;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class HarnessJsonTests {

	@Test
	void acceptsPythonsNonFiniteLiteralsAndTreatsThemAsAbsent() {
		JsonNode node = HarnessJson.parse("out.jsonl", "{\"a\": NaN, \"b\": Infinity, \"c\": -Infinity, \"d\": 1.5}");

		assertThat(Fields.number(node, "a")).isNull();
		assertThat(Fields.number(node, "b")).isNull();
		assertThat(Fields.number(node, "c")).isNull();
		assertThat(Fields.number(node, "d")).isEqualTo(1.5);
	}

	@Test
	void namesTheFileLineAndColumnOfAProblem() {
		assertThatThrownBy(() -> HarnessJson.parse("run=0.json", "{\n  \"a\": 1,\n  \"b\": tru\n}"))
			.isInstanceOf(ImportRejected.class)
			.hasMessageStartingWith("run=0.json: not valid JSON: ")
			.hasMessageContaining("at line 3");
		assertThatThrownBy(() -> HarnessJson.parse("run=0.json", "{\n  \"a\": 1,\n"))
			.hasMessage("run=0.json: not valid JSON: unexpected end of input at line 3, column 1");
		assertThatThrownBy(() -> HarnessJson.parse("empty.json", "  \n")).hasMessage("empty.json: empty, not JSON");
	}

	@Test
	void readsJsonLinesReportingTheFilesLine() {
		ParsedFile file = new ParsedFile(InputFile.of("out.jsonl", "{\"a\": 1}\n\n{\"a\": 2}\n{\"a\": \n"));

		assertThatThrownBy(file::jsonValues).isInstanceOf(ImportRejected.class)
			.hasMessageStartingWith("out.jsonl: not valid JSON: ")
			.hasMessageContaining("at line 4");
		assertThat(new ParsedFile(InputFile.of("ok.jsonl", "{\"a\": 1}\n{\"a\": 2}\n")).jsonValues()).hasSize(2);
	}

}
