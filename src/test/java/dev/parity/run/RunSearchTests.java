package dev.parity.run;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import dev.parity.Fixtures;
import dev.parity.ParityTest;
import dev.parity.TestUploads;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.domain.Page;
import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;

/**
 * The one search box of the run list finds what people type: a commit prefix, part of a
 * name, several words.
 */
@ParityTest
class RunSearchTests {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	@Autowired
	MockMvc mvc;

	@Autowired
	RunSummaries summaries;

	String tag;

	String moe;

	String dense;

	String moeCommit;

	@BeforeEach
	void twoRunsOfOneTeam() throws Exception {
		tag = "t" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
		moeCommit = hex40();
		moe = TestUploads.upload(mvc, document("org-" + tag + "/moe-284b", "bench-" + tag + "-harness", moeCommit));
		dense = TestUploads.upload(mvc, document("org-" + tag + "/dense-8b", "llmperf", hex40()));
	}

	@Test
	void findsACommitByItsFirstCharacters() throws Exception {
		assertThat(search(moeCommit.substring(0, 8))).containsExactly(moe);
		assertThat(search(moeCommit.substring(0, 8).toUpperCase())).containsExactly(moe);
		assertThat(search(moeCommit)).containsExactly(moe);
	}

	@Test
	void theCommitFilterTakesAPrefixOfAnyLength() throws Exception {
		String within = "&model=org-" + tag + "/moe-284b";
		for (int length : new int[] { 1, 7, 39, 40 }) {
			assertThat(filter("commit=" + moeCommit.substring(0, length) + within)).as("prefix of %d", length)
				.containsExactly(moe);
		}
		assertThat(filter("commit=" + moeCommit.substring(0, 12).toUpperCase() + within)).containsExactly(moe);
		assertThat(filter("commit=" + moeCommit + "0" + within)).isEmpty();
		assertThat(filter("commit=zz" + within)).isEmpty();
		String other = moeCommit.charAt(0) == 'f' ? "0" : Character.toString(moeCommit.charAt(0) + 1);
		assertThat(filter("commit=" + other + within)).isEmpty();
	}

	@Test
	void aCommitPrefixAloneListsItsRunsNewestFirstPageByPage() throws Exception {
		String commit = hex40();
		String first = TestUploads.upload(mvc, document("org-" + tag + "/moe-284b", "a-" + tag, commit));
		String second = TestUploads.upload(mvc, document("org-" + tag + "/moe-284b", "b-" + tag, commit));
		String third = TestUploads.upload(mvc, document("org-" + tag + "/moe-284b", "c-" + tag, commit));
		String prefix = commit.substring(0, 10);
		assertThat(filter("commit=" + prefix + "&size=2")).containsExactly(third, second);
		assertThat(filter("commit=" + prefix + "&size=2&page=1")).containsExactly(first);
		assertThat(filter("commit=" + prefix.toUpperCase() + "&size=2&page=1")).containsExactly(first);
		assertThat(JSON
			.readTree(mvc.perform(get("/api/runs?commit=" + prefix + "&size=2"))
				.andReturn()
				.getResponse()
				.getContentAsString())
			.get("total")
			.asLong()).isEqualTo(3);
		assertThat(filter("commit=" + prefix + "&size=2&page=2")).isEmpty();
		// A run left out (a retracted one, for a reader who hides them) is not on any
		// page.
		Page<RunSummary> hidden = summaries.search(new RunSummaries.RunFilter(null, null, null, prefix, null, null),
				Set.of(second), 0, 2, count -> count.getAsLong());
		assertThat(hidden.getContent()).extracting(RunSummary::getId).containsExactly(third, first);
		assertThat(hidden.getTotalElements()).isEqualTo(2);
	}

	@Test
	void findsPartOfAModelOrHarnessName() throws Exception {
		assertThat(search("org-" + tag)).containsExactlyInAnyOrder(moe, dense);
		assertThat(search(tag + "-harness")).containsExactly(moe);
	}

	@Test
	void everyWordMustMatchSomewhere() throws Exception {
		assertThat(search(tag + " dense")).containsExactly(dense);
		assertThat(search("  DENSE   " + tag + " llmperf ")).containsExactly(dense);
		assertThat(search(tag + " moe " + moeCommit.substring(0, 6))).containsExactly(moe);
		assertThat(search(tag + " nowhere-to-be-found")).isEmpty();
	}

	@Test
	void searchesTextLiterallyNotAsAPattern() throws Exception {
		assertThat(search(tag + " %")).isEmpty();
		assertThat(search(tag + " _")).isEmpty();
	}

	private List<String> search(String q) throws Exception {
		String body = mvc.perform(get("/api/runs").param("q", q)).andReturn().getResponse().getContentAsString();
		List<String> ids = new ArrayList<>();
		JSON.readTree(body).get("runs").forEach(run -> ids.add(run.get("id").asString()));
		return ids;
	}

	private List<String> filter(String query) throws Exception {
		String body = mvc.perform(get("/api/runs?" + query)).andReturn().getResponse().getContentAsString();
		List<String> ids = new ArrayList<>();
		JSON.readTree(body).get("runs").forEach(run -> ids.add(run.get("id").asString()));
		return ids;
	}

	private static byte[] document(String repo, String harness, String commit) {
		ObjectNode document = (ObjectNode) JSON.readTree(Fixtures.seedStoryBytes("run-e-control.json"));
		document.put("title", "Search test " + UUID.randomUUID());
		ObjectNode model = (ObjectNode) document.get("model");
		model.put("repo", repo);
		model.put("revision", commit);
		model.put("commit", commit);
		((ObjectNode) document.get("harness")).put("name", harness);
		return JSON.writeValueAsBytes(document);
	}

	private static String hex40() {
		return (UUID.randomUUID().toString() + UUID.randomUUID()).replace("-", "").substring(0, 40);
	}

}
