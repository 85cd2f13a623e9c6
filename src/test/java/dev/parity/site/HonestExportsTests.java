package dev.parity.site;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.parity.ParityTest;
import dev.parity.TestUploads;
import org.commonmark.ext.footnotes.FootnoteDefinition;
import org.commonmark.ext.footnotes.FootnoteReference;
import org.commonmark.ext.footnotes.FootnotesExtension;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.node.AbstractVisitor;
import org.commonmark.node.CustomBlock;
import org.commonmark.node.CustomNode;
import org.commonmark.node.Node;
import org.commonmark.parser.Parser;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.ResultActions;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;
import org.springframework.web.util.HtmlUtils;

import static dev.parity.TestUploads.PASSWORD;
import static dev.parity.TestUploads.USER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * Issue 12, items 1, 2 and 4: loosened settings are never silent, superseded and
 * retracted items say so in every list and export, and every caveat's footnote is
 * referenced from where it applies.
 */
@ParityTest
class HonestExportsTests {

	static final String LOOSENED = "?vary=checkpoint&output_tolerance=10";

	@Autowired
	MockMvc mvc;

	@Autowired
	JdbcClient jdbc;

	@Test
	void loosenedThresholdsAreDisclosedOnThePageInTheJsonAndInEveryExport() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String c = TestUploads.upload(mvc, "run-c-effort-high.json");
		String pair = reference + "..." + c;

		JsonNode defaults = json("/api/compare/" + pair);
		assertThat(defaults.get("non_default_settings").isArray()).isTrue();
		assertThat(defaults.get("non_default_settings")).isEmpty();
		assertThat(defaults.get("ungreyed_by_settings").asInt()).isZero();

		JsonNode loosened = json("/api/compare/" + pair + LOOSENED);
		assertThat(loosened.get("non_default_settings").toString()).isEqualTo(
				"[{\"name\":\"output_tolerance\",\"value\":10,\"default\":0.1},{\"name\":\"vary\",\"value\":\"checkpoint\",\"default\":\"system\"}]");
		// The "+101 %" decode: greyed under the defaults, comparable under these
		// settings.
		JsonNode decode = metric(loosened, "cell-concurrency-2--prompt_tokens-131072", "decode_tps");
		assertThat(decode.get("ratio").asDouble()).isBetween(2.0, 2.02);
		assertThat(decode.get("comparable").asBoolean()).isTrue();
		assertThat(metric(defaults, "cell-concurrency-2--prompt_tokens-131072", "decode_tps").get("comparable")
			.asBoolean()).isFalse();
		int ungreyed = loosened.get("ungreyed_by_settings").asInt();
		assertThat(ungreyed).isPositive().isEqualTo(comparableHereGreyedThere(loosened, defaults));

		String line = "Thresholds loosened: output_tolerance 10 (default 0.1), vary checkpoint (default system) — "
				+ ungreyed + " cell × metric values that the defaults grey are shown as comparable";
		assertThat(page("/compare/" + pair + LOOSENED)).contains("id=\"settings-banner\"").contains(line);
		assertThat(signedIn("/compare/" + pair + LOOSENED)).contains("name=\"reason\"");
		assertThat(signedIn("/compare/" + pair)).doesNotContain("id=\"settings-banner\"")
			.doesNotContain("name=\"reason\"");
		assertThat(page("/compare/" + pair + "/export.md" + LOOSENED)).contains("> " + ComparisonExport.escape(line));
		assertThat(page("/compare/" + pair + "/export.csv" + LOOSENED).lines().findFirst().orElseThrow())
			.isEqualTo("# " + line);
		JsonNode export = json("/compare/" + pair + "/export.json" + LOOSENED);
		assertThat(export.propertyNames().iterator().next()).isEqualTo("notices");
		assertThat(export.get("notices").get(0).asString()).isEqualTo(line);
		assertThat(export.get("ungreyed_by_settings").asInt()).isEqualTo(ungreyed);
		// Under the defaults no settings line (another test may have superseded run C:
		// that notice may stand).
		assertThat(json("/compare/" + pair + "/export.json").get("notices").valueStream().map(JsonNode::asString))
			.noneMatch(notice -> notice.startsWith("Thresholds") || notice.startsWith("Settings differ"));
		assertThat(page("/compare/" + pair + "/export.csv").lines()
			.filter(l -> !l.startsWith("# "))
			.findFirst()
			.orElseThrow()).startsWith("\"anchor\"");
		assertThat(page("/compare/" + pair + "/export.csv")).doesNotContain("# Thresholds")
			.doesNotContain("# Settings differ");
	}

	@Test
	void publishingWithNonDefaultSettingsNeedsAReasonWhichThePublicationAndItsExportsShow() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String c = TestUploads.upload(mvc, "run-c-effort-high.json");
		String pair = reference + "..." + c;
		long before = publications();
		for (String reason : new String[] { null, "", "  " }) {
			MockHttpServletRequestBuilder publish = post("/compare/" + pair + "/publish")
				.param("title", "Decode +101 %")
				.param("query", LOOSENED);
			if (reason != null) {
				publish.param("reason", reason);
			}
			String refusal = HtmlUtils.htmlUnescape(mvc.perform(publish.with(httpBasic(USER, PASSWORD)).with(csrf()))
				.andExpect(status().isBadRequest())
				.andReturn()
				.getResponse()
				.getContentAsString(StandardCharsets.UTF_8));
			assertThat(refusal).contains("publishing it needs a reason").contains("output_tolerance 10 (default 0.1)");
		}
		assertThat(publications()).isEqualTo(before);

		String reason = "to show what the longer outputs look like when they are not greyed";
		String id = published(mvc.perform(post("/compare/" + pair + "/publish").param("title", "Decode +101 %")
			.param("query", LOOSENED)
			.param("reason", reason)
			.with(httpBasic(USER, PASSWORD))
			.with(csrf())));
		String live = json("/api/compare/" + pair + LOOSENED).get("ungreyed_by_settings").asString();
		String line = "Thresholds loosened: output_tolerance 10 (default 0.1), vary checkpoint (default system) — "
				+ live + " cell × metric values that the defaults grey are shown as comparable";

		assertThat(page("/published/" + id)).contains("id=\"settings-banner\"")
			.contains(line)
			.contains("id=\"settings-reason\"")
			.contains(reason);
		assertThat(page("/published/" + id + "/export.md")).contains("> " + ComparisonExport.escape(line))
			.contains("> Reason given for these settings: " + ComparisonExport.escape(reason));
		List<String> csv = page("/published/" + id + "/export.csv").lines().toList();
		assertThat(csv.subList(0, 2)).containsExactly("# " + line, "# Reason given for these settings: " + reason);
		JsonNode export = json("/published/" + id + "/export.json");
		assertThat(export.get("notices").toString()).contains(line).contains(reason);
		assertThat(export.get("settings_reason").asString()).isEqualTo(reason);
		assertThat(export.get("non_default_settings")).hasSize(2);
		JsonNode api = json("/api/published/" + id);
		assertThat(api.get("settings_reason").asString()).isEqualTo(reason);
		assertThat(api.get("comparison").get("ungreyed_by_settings").asString()).isEqualTo(live);
	}

	@Test
	void publishingAComparisonWithNoComparableCellNeedsAConfirmationAndSaysSo() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String a = TestUploads.upload(mvc, "run-a-thinking-max.json");
		String pair = reference + "..." + a;
		assertThat(signedIn("/compare/" + pair)).contains("name=\"confirm_no_comparable\"");
		long before = publications();
		String refusal = mvc
			.perform(post("/compare/" + pair + "/publish").param("title", "A is 5x slower")
				.with(httpBasic(USER, PASSWORD))
				.with(csrf()))
			.andExpect(status().isBadRequest())
			.andReturn()
			.getResponse()
			.getContentAsString(StandardCharsets.UTF_8);
		assertThat(HtmlUtils.htmlUnescape(refusal)).contains("no cell of this comparison is comparable")
			.contains("confirm_no_comparable");
		assertThat(publications()).isEqualTo(before);

		String id = published(mvc.perform(post("/compare/" + pair + "/publish").param("title", "A is 5x slower")
			.param("confirm_no_comparable", "true")
			.with(httpBasic(USER, PASSWORD))
			.with(csrf())));
		assertThat(page("/published/" + id)).contains("id=\"no-comparable-banner\"")
			.contains("No cell of this comparison is comparable");
		assertThat(page("/published/" + id + "/export.md")).contains("> No cell of this comparison is comparable");
		assertThat(json("/api/published/" + id).get("no_comparable_confirmed").asBoolean()).isTrue();
		// The control comparison has comparable cells: no question asked.
		String e = TestUploads.upload(mvc, "run-e-control.json");
		assertThat(signedIn("/compare/" + reference + "..." + e)).contains("name=\"title\"")
			.doesNotContain("name=\"confirm_no_comparable\"");
	}

	@Test
	void aSupersededPublicationAndRunSaySoInEveryListAndExportAndNameTheirReplacement() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String c = TestUploads.upload(mvc, TestUploads.fresh("run-c-effort-high.json"));
		String e = TestUploads.upload(mvc, "run-e-control.json");
		String cTitle = json("/api/runs/" + c).get("title").asString();
		String old = published(mvc
			.perform(post("/compare/" + reference + "..." + c + "/publish").param("title", "Spark: +101 % decode")
				.param("confirm_no_comparable", "true")
				.with(httpBasic(USER, PASSWORD))
				.with(csrf())));
		String replacement = published(mvc.perform(
				post("/compare/" + reference + "..." + e + "/publish").param("title", "Spark matches the reference")
					.with(httpBasic(USER, PASSWORD))
					.with(csrf())));
		// Seen by a visitor before the supersession (a kept page), and again after it:
		// marked then.
		assertThat(between(page("/compare/" + reference + "..." + c), "Published from these runs", "</section>"))
			.doesNotContain("record-mark");
		String reason = "longer outputs | other weights <b>";
		mvc.perform(post("/published/{id}/retract", old).param("reason", reason)
			.param("replacement", replacement)
			.with(httpBasic(USER, PASSWORD))
			.with(csrf())).andExpect(status().is3xxRedirection());
		assertThat(between(page("/compare/" + reference + "..." + c), "Published from these runs", "</section>"))
			.contains("record-mark superseded");
		mvc.perform(post("/runs/{id}/retract", c).param("reason", "superseded by the control")
			.param("replacement", e)
			.with(httpBasic(USER, PASSWORD))
			.with(csrf())).andExpect(status().is3xxRedirection());

		// Exports of the publication start with the notice and the link to the
		// replacement, named by its title.
		String md = page("/published/" + old + "/export.md");
		assertThat(md).startsWith("# Spark: +101 % decode\n\n> **Superseded** on ")
			.contains(" by [Spark matches the reference](http://localhost/published/" + replacement + "): "
					+ "longer outputs \\| other weights &lt;b&gt;");
		String csv = page("/published/" + old + "/export.csv");
		assertThat(csv.lines().findFirst().orElseThrow()).startsWith("# Superseded on ")
			.endsWith(" by “Spark matches the reference” (http://localhost/published/" + replacement + "): " + reason);
		JsonNode export = json("/published/" + old + "/export.json");
		assertThat(export.get("notices").get(0).asString()).startsWith("Superseded on ");
		JsonNode superseded = export.get("superseded");
		assertThat(superseded.get("by").asString()).isEqualTo(replacement);
		assertThat(superseded.get("by_title").asString()).isEqualTo("Spark matches the reference");
		assertThat(superseded.get("url").asString()).isEqualTo("http://localhost/published/" + replacement);
		assertThat(superseded.get("reason").asString()).isEqualTo(reason);
		assertThat(superseded.get("at").asString()).isNotBlank();
		assertThat(json("/api/published/" + old).get("superseded").get("by_title").asString())
			.isEqualTo("Spark matches the reference");
		assertThat(json("/published/" + replacement + "/export.json").has("superseded")).isFalse();

		// The run's exports and JSON too.
		String eTitle = json("/api/runs/" + e).get("title").asString();
		assertThat(page("/runs/" + c + "/export.md")).contains("> **Superseded** on ")
			.contains("by [" + ComparisonExport.escape(eTitle) + "](http://localhost/runs/" + e
					+ "): superseded by the control");
		assertThat(page("/runs/" + c + "/export.csv").lines().findFirst().orElseThrow()).startsWith("# Superseded on ")
			.contains("(http://localhost/runs/" + e + ")");
		assertThat(json("/api/runs/" + c).get("superseded").get("by").asString()).isEqualTo(e);
		// A comparison of the superseded run says so in its exports.
		assertThat(page("/compare/" + reference + "..." + c + "/export.md"))
			.contains("> The contender run “" + ComparisonExport.escape(cTitle));

		// Banners name the title; every list marks the item.
		assertThat(page("/published/" + replacement))
			.contains("This publication supersedes “<a href=\"/published/" + old + "\">Spark: +101 % decode</a>”");
		assertThat(page("/runs/" + c)).contains(">" + HtmlUtils.htmlEscape(eTitle) + "</a>”");
		assertThat(page("/runs/" + e)).contains(">" + HtmlUtils.htmlEscape(cTitle) + "</a>”");
		assertThat(page("/compare/" + reference + "..." + c))
			.contains("by “<a href=\"/runs/" + e + "\">" + HtmlUtils.htmlEscape(eTitle) + "</a>”");
		String mark = "<span class=\"record-mark superseded\" title=\"" + "longer outputs | other weights &lt;b&gt;"
				+ "\">superseded</span>";
		assertThat(between(page("/"), "Recently published", "</section>")).contains(mark);
		assertThat(between(page("/compare"), "Published comparisons", "</section>")).contains(mark);
		assertThat(between(page("/compare/" + reference + "..." + c), "Published from these runs", "</section>"))
			.contains(mark);
		// The picker lists the run with its mark beside its title.
		assertThat(between(page("/compare"), "id=\"baseline-" + c + "\"", "</tr>"))
			.contains(HtmlUtils.htmlEscape(cTitle))
			.contains("record-mark superseded");
		String q = cTitle.substring(cTitle.length() - 8);
		assertThat(page("/runs?q=" + q)).contains("record-mark superseded");
		assertThat(between(page("/"), "Recent runs", "</section>")).contains("record-mark superseded");
		JsonNode listed = json("/api/runs?q=" + q).get("runs").get(0);
		assertThat(listed.get("record_status").asString()).isEqualTo("superseded");
	}

	@Test
	void csvCellsThatASpreadsheetWouldRunAreNeutralisedAndPlainNumbersStayNumbers() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String e = TestUploads.upload(mvc, "run-e-control.json");
		String pair = reference + "..." + e;
		caveat(pair, "=HYPERLINK(\"http://evil.example\",\"see\")", "cell-concurrency-1--prompt_tokens-280", "ttft_s");
		String csv = page("/compare/" + pair + "/export.csv");
		// Other tests may have written caveats on the same cell (the same bytes give the
		// same runs): the caveats
		// field joins them, so look at the field that holds this one, as a spreadsheet
		// would read it.
		List<String> caveatFields = new ArrayList<>();
		try (CSVParser parser = CSVParser.parse(csv, CSVFormat.DEFAULT.builder().setCommentMarker('#').get())) {
			for (CSVRecord record : parser) {
				record.forEach(field -> {
					assertThat(field).as("a CSV field a spreadsheet would run").doesNotMatch("[=+@\t\r].*");
					if (field.contains("HYPERLINK")) {
						caveatFields.add(field);
					}
				});
			}
		}
		assertThat(caveatFields).isNotEmpty().allSatisfy(field -> assertThat(field).doesNotStartWith("="));
		assertThat(csv).contains("'=HYPERLINK(\"\"http://evil.example\"\",\"\"see\"\")")
			.doesNotContain(",=HYPERLINK")
			.doesNotContain(",\"=HYPERLINK");

		String hostile = TestUploads.upload(mvc, hostileRun());
		String runCsv = page("/runs/" + hostile + "/export.csv");
		assertThat(runCsv).contains("\"'=1+2\"")
			.contains("\"'+cmd\"")
			.contains("\"'-2+3\"")
			.contains("\"'@SUM(1)\"")
			.contains("\"'\tx\"")
			.contains(",-0.27,");
		for (String line : runCsv.lines().toList()) {
			for (String field : line.split(",")) {
				assertThat(field).as(line).doesNotMatch("[=+@\t\r].*").doesNotMatch("-[^0-9].*");
			}
		}
	}

	@Test
	void markdownEscapesPipesAnglesAndBackticksInEveryNameAndValue() throws Exception {
		String hostile = TestUploads.upload(mvc, hostileRun());
		String md = page("/runs/" + hostile + "/export.md");
		assertThat(md).doesNotContain("<script>").doesNotContain("a|b").contains("a\\|b&lt;script&gt;\\`x\\`");
		assertTablesIntact(md);
		String reference = TestUploads.upload(mvc, "reference.json");
		String comparison = page("/compare/" + reference + "..." + hostile + "/export.md");
		assertThat(comparison).doesNotContain("<script>").doesNotContain("a|b");
		assertTablesIntact(comparison);
	}

	@Test
	void everyFootnoteOfAMarkdownExportIsReferencedAndEveryReferenceDefined() throws Exception {
		String reference = TestUploads.upload(mvc, "reference.json");
		String e = TestUploads.upload(mvc, "run-e-control.json");
		String a = TestUploads.upload(mvc, "run-a-thinking-max.json");
		String control = reference + "..." + e;
		caveat(control, "The short-prompt TTFT spike is per-batch-size CUDA-graph capture",
				"cell-concurrency-4--prompt_tokens-280", "ttft_s");
		caveat(control, "A note on the whole cell", "cell-concurrency-8--prompt_tokens-280", "");
		caveat(control, "A note on the whole comparison", "", "");
		mvc.perform(post("/runs/{id}/caveats", e).param("text", "A note on E's 8192 × 2 cell")
			.param("cell", "cell-concurrency-2--prompt_tokens-8192")
			.with(httpBasic(USER, PASSWORD))
			.with(csrf())).andExpect(status().is3xxRedirection());
		mvc.perform(post("/runs/{id}/caveats", e).param("text", "A note on run E")
			.with(httpBasic(USER, PASSWORD))
			.with(csrf())).andExpect(status().is3xxRedirection());

		String controlMd = page("/compare/" + control + "/export.md");
		assertFootnotesResolve(controlMd);
		assertThat(row(controlMd, "| 8,192 | 2 |")).contains("[^c");
		assertFootnotesResolve(page("/compare/" + reference + "..." + a + "/export.md"));
		assertFootnotesResolve(page("/runs/" + e + "/export.md"));
		assertFootnotesResolve(page("/runs/" + a + "/export.md"));
		String id = published(mvc.perform(post("/compare/" + control + "/publish").param("title", "Controlled")
			.with(httpBasic(USER, PASSWORD))
			.with(csrf())));
		assertFootnotesResolve(page("/published/" + id + "/export.md"));

		// The markers show in their rows on the pages, and lead to the caveat.
		String comparisonPage = page("/compare/" + control);
		String cellRow = between(comparisonPage, "id=\"cell-concurrency-2--prompt_tokens-8192\"", "</tr>");
		Matcher marker = Pattern.compile("href=\"#note-(c\\d+)\"").matcher(cellRow);
		assertThat(marker.find()).isTrue();
		assertThat(comparisonPage).contains("id=\"note-" + marker.group(1) + "\"");
		String runPage = page("/runs/" + e);
		String runRow = between(runPage, "id=\"cell-concurrency-2--prompt_tokens-8192\"", "</tr>");
		Matcher runMarker = Pattern.compile("href=\"#note-(c\\d+)\"").matcher(runRow);
		assertThat(runMarker.find()).isTrue();
		assertThat(runPage).contains("id=\"note-" + runMarker.group(1) + "\"");
		assertThat(between(page("/published/" + id), "id=\"cell-concurrency-2--prompt_tokens-8192\"", "</tr>"))
			.contains("href=\"#note-c");
	}

	/**
	 * A run whose names and values hold what spreadsheets run and what breaks Markdown.
	 */
	private static byte[] hostileRun() {
		ObjectNode doc = (ObjectNode) TestUploads.tree(TestUploads.fresh("probe-reasoning-levers.json"));
		doc.put("title", "=HYPERLINK(\"http://evil.example\",\"x\") a|b<script>`x`");
		((ObjectNode) doc.get("system")).put("name", "a|b<script>`x`");
		String[] settings = { "=1+2", "+cmd", "-2+3", "@SUM(1)", "\tx", "a|b<script>`x`" };
		JsonNode cells = doc.get("cells");
		for (int i = 0; i < cells.size(); i++) {
			ObjectNode params = (ObjectNode) cells.get(i).get("params");
			String setting = params.get("setting").asString();
			params.put("setting", i < settings.length ? settings[i] : setting);
			params.put("offset", -0.27);
		}
		return TestUploads.tree(doc.toString().getBytes(StandardCharsets.UTF_8))
			.toString()
			.getBytes(StandardCharsets.UTF_8);
	}

	private static void assertFootnotesResolve(String markdown) {
		Parser parser = Parser.builder()
			.extensions(List.of(FootnotesExtension.create(), TablesExtension.create()))
			.build();
		Node document = parser.parse(markdown);
		Set<String> defined = new HashSet<>();
		Set<String> referenced = new HashSet<>();
		document.accept(new AbstractVisitor() {
			@Override
			public void visit(CustomNode node) {
				if (node instanceof FootnoteReference reference) {
					referenced.add(reference.getLabel());
				}
				visitChildren(node);
			}

			@Override
			public void visit(CustomBlock node) {
				if (node instanceof FootnoteDefinition definition) {
					defined.add(definition.getLabel());
				}
				visitChildren(node);
			}
		});
		// A reference without a definition is not parsed as one: every [^label] written
		// outside a definition must be.
		Set<String> written = new HashSet<>();
		Matcher reference = Pattern.compile("\\[\\^([^\\]]+)\\](?!:)").matcher(markdown);
		while (reference.find()) {
			written.add(reference.group(1));
		}
		assertThat(defined).as("footnote definitions").isNotEmpty();
		assertThat(referenced).as("footnotes referenced").isEqualTo(defined);
		assertThat(written).as("references written").isEqualTo(referenced);
	}

	/**
	 * Every table row has as many cells as its header: no unescaped pipe split a cell.
	 */
	private static void assertTablesIntact(String markdown) {
		int columns = -1;
		for (String line : markdown.lines().toList()) {
			if (!line.startsWith("|")) {
				columns = -1;
				continue;
			}
			int cells = line.replace("\\|", "").split("\\|", -1).length;
			if (columns < 0) {
				columns = cells;
			}
			assertThat(cells).as(line).isEqualTo(columns);
		}
	}

	private static String row(String markdown, String start) {
		return markdown.lines().filter(line -> line.startsWith(start)).findFirst().orElseThrow();
	}

	private static String between(String text, String start, String end) {
		int from = text.indexOf(start);
		assertThat(from).as(start).isNotNegative();
		return text.substring(from, text.indexOf(end, from));
	}

	private static JsonNode metric(JsonNode comparison, String anchor, String metric) {
		return comparison.get("cells")
			.valueStream()
			.filter(cell -> cell.get("anchor").asString().equals(anchor))
			.findFirst()
			.orElseThrow()
			.get("metrics")
			.valueStream()
			.filter(m -> m.get("metric").asString().equals(metric))
			.findFirst()
			.orElseThrow();
	}

	private static int comparableHereGreyedThere(JsonNode here, JsonNode defaults) {
		int count = 0;
		for (JsonNode cell : here.get("cells")) {
			for (JsonNode entry : cell.get("metrics")) {
				if (entry.get("comparable").asBoolean()
						&& !metric(defaults, cell.get("anchor").asString(), entry.get("metric").asString())
							.get("comparable")
							.asBoolean()) {
					count++;
				}
			}
		}
		return count;
	}

	private void caveat(String pair, String text, String cell, String metric) throws Exception {
		mvc.perform(post("/compare/" + pair + "/caveats").param("text", text)
			.param("cell", cell)
			.param("metric", metric)
			.with(httpBasic(USER, PASSWORD))
			.with(csrf())).andExpect(status().is3xxRedirection());
	}

	private long publications() {
		return jdbc.sql("select count(*) from publication").query(Long.class).single();
	}

	private static String published(ResultActions result) throws Exception {
		MvcResult done = result.andExpect(status().is3xxRedirection()).andReturn();
		String location = done.getResponse().getRedirectedUrl();
		assertThat(location).matches("/published/[a-z0-9]{10}");
		return location.substring("/published/".length());
	}

	private String page(String url) throws Exception {
		return mvc.perform(get(url))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString(StandardCharsets.UTF_8);
	}

	private String signedIn(String url) throws Exception {
		return mvc.perform(get(url).with(user(USER).roles("UPLOADER")))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString(StandardCharsets.UTF_8);
	}

	private JsonNode json(String url) throws Exception {
		return TestUploads
			.tree(mvc.perform(get(url)).andExpect(status().isOk()).andReturn().getResponse().getContentAsByteArray());
	}

}
