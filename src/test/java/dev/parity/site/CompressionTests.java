package dev.parity.site;

import java.nio.charset.StandardCharsets;

import dev.parity.ParityTest;
import dev.parity.RawHttp;
import dev.parity.TestUploads;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;

import static dev.parity.TestUploads.PASSWORD;
import static dev.parity.TestUploads.USER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

/**
 * Pages, JSON, CSS and JavaScript come back gzip-compressed; an uploaded file comes back
 * as its bytes.
 */
@ParityTest
class CompressionTests {

	@Autowired
	MockMvc mvc;

	@LocalServerPort
	int port;

	@Test
	void pagesJsonStylesAndScriptsAreCompressedForAClientThatAcceptsGzip() throws Exception {
		String run = TestUploads.upload(mvc, "reference.json");
		RawHttp http = new RawHttp(port);
		for (String target : new String[] { "/webjars/chart.js/dist/chart.umd.js", "/js/compare-charts.js",
				"/css/parity.css", "/runs/" + run, "/api/runs/" + run, "/runs" }) {
			RawHttp.Answer answer = http.get(target, "Accept-Encoding: gzip, deflate, br");
			assertThat(answer.status()).as(target).isEqualTo(200);
			assertThat(answer.header("Content-Encoding")).as(target).containsExactly("gzip");
			assertThat(String.join(",", answer.header("Vary"))).as(target).containsIgnoringCase("Accept-Encoding");
		}
		String published = publish(run, TestUploads.upload(mvc, "run-e-control.json"));
		for (String target : new String[] { "/published/" + published, "/api/published/" + published,
				"/embed/published/" + published }) {
			RawHttp.Answer answer = http.get(target, "Accept-Encoding: gzip");
			assertThat(answer.status()).as(target).isEqualTo(200);
			assertThat(answer.header("Content-Encoding")).as(target).containsExactly("gzip");
			assertThat(answer.header("ETag").get(0)).as(target).startsWith("W/");
			assertThat(http.get(target, "Accept-Encoding: gzip", "If-None-Match: " + answer.header("ETag").get(0))
				.status()).as(target).isEqualTo(304);
		}
		RawHttp.Answer plain = http.get("/webjars/chart.js/dist/chart.umd.js");
		assertThat(plain.header("Content-Encoding")).isEmpty();
		assertThat(plain.body()).contains("Chart");
	}

	private String publish(String baseline, String contender) throws Exception {
		String body = mvc
			.perform(post("/api/published").with(httpBasic(USER, PASSWORD))
				.contentType(MediaType.APPLICATION_JSON)
				.content("{\"baseline\": \"" + baseline + "\", \"contender\": \"" + contender
						+ "\", \"title\": \"Compressed\"}"))
			.andReturn()
			.getResponse()
			.getContentAsString();
		return TestUploads.tree(body.getBytes(StandardCharsets.UTF_8)).get("id").asString();
	}

	@Test
	void anUploadedDocumentKeepsItsLengthItsETagAndItsRanges() throws Exception {
		String run = TestUploads.upload(mvc, "reference.json");
		RawHttp http = new RawHttp(port);
		RawHttp.Answer whole = http.get("/api/runs/" + run + "/document", "Accept-Encoding: gzip");
		assertThat(whole.status()).isEqualTo(200);
		assertThat(whole.header("Content-Encoding")).isEmpty();
		assertThat(whole.header("ETag")).hasSize(1);
		long length = Long.parseLong(whole.header("Content-Length").get(0));
		assertThat(length).isEqualTo(whole.body().getBytes(StandardCharsets.UTF_8).length);

		RawHttp.Answer part = http.get("/api/runs/" + run + "/document", "Accept-Encoding: gzip", "Range: bytes=0-9");
		assertThat(part.status()).isEqualTo(206);
		assertThat(part.header("Content-Encoding")).isEmpty();
		assertThat(part.header("Content-Range")).containsExactly("bytes 0-9/" + length);
		assertThat(part.header("Content-Length")).containsExactly("10");

		RawHttp.Answer cached = http.get("/api/runs/" + run + "/document", "Accept-Encoding: gzip",
				"If-None-Match: " + whole.header("ETag").get(0));
		assertThat(cached.status()).isEqualTo(304);
	}

}
