package dev.parity.site;

import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.UUID;

import dev.parity.ParityTest;
import dev.parity.TestUploads;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.redirectedUrl;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * Runs are chosen by name: the compare page finds them by the words of their title (and
 * system, model, engine, day of upload) and offers each as baseline or contender; the run
 * list's checkboxes compare 2 to 9 runs.
 */
@ParityTest
class ChooseRunsByNameTests {

	@Autowired
	MockMvc mvc;

	@Test
	void thePickerFindsRunsByTitleWordsAndByTheDayOfUpload() throws Exception {
		String word = "heron" + UUID.randomUUID().toString().substring(0, 6);
		String heron = TestUploads.upload(mvc, titled("run-e-control.json", "Nightly " + word + " control"));
		Document found = page("/compare?q=" + word);
		assertThat(found.select("table.pick-runs tbody tr")).hasSize(1);
		assertThat(found.selectFirst("table.pick-runs tbody tr").text()).contains("Nightly " + word + " control");
		assertThat(found.select("input[name=baseline][value=" + heron + "]")).hasSize(1);
		assertThat(found.select("input[name=contender][value=" + heron + "]")).hasSize(1);
		assertThat(found.selectFirst("p.count").text()).isEqualTo("1 run matches “" + word + "”");
		// Two selects of every run are gone.
		assertThat(found.select("select[name=baseline], select[name=contender]")).isEmpty();

		String today = LocalDate.now(ZoneOffset.UTC).toString();
		Document byDay = search(word + " " + today);
		assertThat(byDay.select("input[name=baseline][value=" + heron + "]")).hasSize(1);
		Document otherDay = search(word + " 2001-01-01");
		assertThat(otherDay.select("table.pick-runs")).isEmpty();
		assertThat(otherDay.selectFirst("p.empty").text()).contains("No run matches");

		// A run chosen before the search stays offered, checked.
		String other = TestUploads.upload(mvc, TestUploads.fresh("reference.json"));
		Document kept = page("/compare?q=" + word + "&baseline=" + other);
		assertThat(kept.select("input[name=baseline][value=" + other + "]").attr("checked")).isNotNull();
		assertThat(kept.select("input[name=baseline][value=" + other + "][checked]")).hasSize(1);
		// Both chosen: the comparison.
		mvc.perform(get("/compare?baseline=" + other + "&contender=" + heron + "&vary=system"))
			.andExpect(redirectedUrl("/compare/" + other + "..." + heron + "?vary=system"));
	}

	@Test
	void theRunListComparesTheCheckedRunsAgainstTheOneMarkedBaseline() throws Exception {
		String reference = TestUploads.upload(mvc, TestUploads.fresh("reference.json"));
		String a = TestUploads.upload(mvc, TestUploads.fresh("run-a-thinking-max.json"));
		String e = TestUploads.upload(mvc, TestUploads.fresh("run-e-control.json"));
		Document list = page("/runs");
		assertThat(list.select("form.compare-checked input[type=checkbox][name=runs][value=" + a + "]")).hasSize(1);
		assertThat(list.select("form.compare-checked input[type=radio][name=baseline][value=" + a + "]")).hasSize(1);
		assertThat(list.selectFirst("form.compare-checked").attr("action")).isEqualTo("/compare");

		// No baseline marked: the reference among them.
		mvc.perform(get("/compare?runs=" + a + "&runs=" + reference + "&runs=" + e))
			.andExpect(redirectedUrl("/compare/" + reference + "..." + a + "," + e));
		// Marked: that one.
		mvc.perform(get("/compare?runs=" + a + "&runs=" + reference + "&runs=" + e + "&baseline=" + e))
			.andExpect(redirectedUrl("/compare/" + e + "..." + a + "," + reference));
		// Two runs, no reference between them: the earliest uploaded is the baseline.
		mvc.perform(get("/compare?runs=" + e + "&runs=" + a)).andExpect(redirectedUrl("/compare/" + a + "..." + e));
	}

	@Test
	void oneOrTenRunsAreAClearRefusal() throws Exception {
		String a = TestUploads.upload(mvc, TestUploads.fresh("run-a-thinking-max.json"));
		String body = mvc.perform(get("/compare?runs=" + a))
			.andExpect(status().isBadRequest())
			.andReturn()
			.getResponse()
			.getContentAsString(StandardCharsets.UTF_8);
		assertThat(Jsoup.parse(body).selectFirst("p.problem").text())
			.isEqualTo("Choose 2 to 9 runs to compare: 1 run was chosen.");
		StringBuilder ten = new StringBuilder("/compare?");
		for (int i = 0; i < 10; i++) {
			ten.append("runs=").append("run").append(i).append("abcdef".substring(0, 6)).append('&');
		}
		String tooMany = mvc.perform(get(ten.toString()))
			.andExpect(status().isBadRequest())
			.andReturn()
			.getResponse()
			.getContentAsString(StandardCharsets.UTF_8);
		assertThat(Jsoup.parse(tooMany).selectFirst("p.problem").text()).contains("10 runs were chosen");
	}

	private Document page(String path) throws Exception {
		return Jsoup.parse(mvc.perform(get(path))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString(StandardCharsets.UTF_8));
	}

	private Document search(String q) throws Exception {
		return Jsoup.parse(mvc.perform(get("/compare").param("q", q))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString(StandardCharsets.UTF_8));
	}

	private static byte[] titled(String fixture, String title) {
		ObjectNode document = (ObjectNode) TestUploads.tree(TestUploads.fresh(fixture));
		document.put("title", title);
		return document.toString().getBytes(StandardCharsets.UTF_8);
	}

}
