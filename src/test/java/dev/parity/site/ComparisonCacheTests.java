package dev.parity.site;

import java.nio.charset.StandardCharsets;

import dev.parity.ParityTest;
import dev.parity.TestUploads;
import dev.parity.caveat.Caveat;
import dev.parity.caveat.Caveats;
import dev.parity.record.Publications;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

/**
 * Kept comparisons (snapshots and pages) never outlive the record they show: a caveat, a
 * status change or a retraction recorded after a page was kept is on the next page, and
 * the settings are part of what is kept.
 */
@ParityTest
class ComparisonCacheTests {

	@Autowired
	MockMvc mvc;

	@Autowired
	Caveats caveats;

	@Autowired
	Publications publications;

	@Test
	void showsTheSamePageAgainUntilTheRecordChanges() throws Exception {
		String baseline = TestUploads.upload(mvc, TestUploads.fresh("reference.json"));
		String contender = TestUploads.upload(mvc, TestUploads.fresh("run-e-control.json"));
		String path = "/compare/" + baseline + "..." + contender;

		String first = page(path);
		assertThat(page(path)).isEqualTo(first);

		caveats.add(Caveat.Target.comparison(baseline, contender, null, null), "Kept pages must show this caveat", null,
				TestUploads.USER);
		assertThat(page(path)).contains("Kept pages must show this caveat");
		assertThat(json("/api" + path)).contains("Kept pages must show this caveat");

		Caveat hypothesis = caveats.add(Caveat.Target.comparison(baseline, contender, null, null), "Maybe a cold start",
				"repeat warmed up", TestUploads.USER);
		assertThat(page(path)).contains("Maybe a cold start").doesNotContain("Refuted by the warmed-up repeat");
		caveats.changeStatus(hypothesis.id(), "refuted", "Refuted by the warmed-up repeat", null, TestUploads.USER);
		assertThat(page(path)).contains("Refuted by the warmed-up repeat");

		assertThat(page(path)).doesNotContain("retraction-banner-test-reason");
		publications.retract("run", contender, "retraction-banner-test-reason", null, TestUploads.USER);
		assertThat(page(path)).contains("retraction-banner-test-reason");
		assertThat(page(path + "?band=0.2")).contains("retraction-banner-test-reason");
	}

	@Test
	void aKeptPageListsAPublicationMadeAfterItAndMarksItTakenBack() throws Exception {
		String baseline = TestUploads.upload(mvc, TestUploads.fresh("reference.json"));
		String contender = TestUploads.upload(mvc, TestUploads.fresh("run-e-control.json"));
		String pair = baseline + "..." + contender;
		String path = "/compare/" + pair;
		String first = page(path);
		assertThat(page(path)).isEqualTo(first).doesNotContain("Published from these runs");

		var published = mvc
			.perform(post(path + "/publish").param("title", "Kept pages list this publication")
				.with(httpBasic(TestUploads.USER, TestUploads.PASSWORD))
				.with(csrf()))
			.andReturn()
			.getResponse();
		assertThat(published.getStatus()).isEqualTo(302);
		String id = published.getRedirectedUrl().substring("/published/".length());
		assertThat(page(path)).contains("Published from these runs")
			.contains("Kept pages list this publication")
			.doesNotContain("publication-taken-back-reason");

		publications.retract("publication", id, "publication-taken-back-reason", null, TestUploads.USER);
		assertThat(page(path)).contains("Kept pages list this publication").contains("publication-taken-back-reason");
	}

	@Test
	void keepsSettingsApart() throws Exception {
		String baseline = TestUploads.upload(mvc, TestUploads.fresh("reference.json"));
		String contender = TestUploads.upload(mvc, TestUploads.fresh("run-e-control.json"));
		String path = "/api/compare/" + baseline + "..." + contender;
		String median = json(path);
		String p99 = json(path + "?stat=p99");
		assertThat(median).contains("\"stat\":\"median\"");
		assertThat(p99).contains("\"stat\":\"p99\"");
		assertThat(json(path)).isEqualTo(median);
		String band = json(path + "?band=0.05");
		assertThat(band).contains("\"band\":0.05");
		assertThat(json(path + "?critical_flags=dtype,quantization")).contains("[\"dtype\",\"quantization\"]");
		assertThat(json(path + "?critical_flags=quantization,dtype")).contains("[\"quantization\",\"dtype\"]");
	}

	@Test
	void showsASignedInUserTheirOwnForms() throws Exception {
		String baseline = TestUploads.upload(mvc, TestUploads.fresh("reference.json"));
		String contender = TestUploads.upload(mvc, TestUploads.fresh("run-e-control.json"));
		String path = "/compare/" + baseline + "..." + contender;
		assertThat(page(path)).doesNotContain("caveat-form");
		String signedIn = mvc.perform(get(path).with(user("someone").roles("UPLOADER")))
			.andReturn()
			.getResponse()
			.getContentAsString();
		assertThat(signedIn).contains("caveat-form").contains("someone");
		assertThat(page(path)).doesNotContain("caveat-form").doesNotContain("someone");
	}

	private String page(String path) throws Exception {
		var response = mvc.perform(get(path)).andReturn().getResponse();
		assertThat(response.getStatus()).isEqualTo(200);
		return response.getContentAsString(StandardCharsets.UTF_8);
	}

	private String json(String path) throws Exception {
		var response = mvc.perform(get(path)).andReturn().getResponse();
		assertThat(response.getStatus()).isEqualTo(200);
		return response.getContentAsString(StandardCharsets.UTF_8);
	}

}
