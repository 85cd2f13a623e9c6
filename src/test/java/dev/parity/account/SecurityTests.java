package dev.parity.account;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import dev.parity.ParityTest;
import dev.parity.TestUploads;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.mock.web.MockMultipartFile;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.request.AbstractMockHttpServletRequestBuilder;
import org.springframework.test.web.servlet.request.RequestPostProcessor;

import static dev.parity.TestUploads.PASSWORD;
import static dev.parity.TestUploads.USER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.multipart;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/** Who may write, how, and what hostile or oversized input gets. */
@ParityTest
class SecurityTests {

	static final String VIEWER_PASSWORD = "viewer-password-1";

	static final String UPLOADER_PASSWORD = "uploader-password-1";

	@Autowired
	MockMvc mvc;

	@Autowired
	JdbcClient jdbc;

	@LocalServerPort
	int port;

	String viewer;

	String uploader;

	String reference;

	String control;

	@BeforeEach
	void usersAndRuns() throws Exception {
		viewer = "viewer-" + UUID.randomUUID().toString().substring(0, 8);
		uploader = "uploader-" + UUID.randomUUID().toString().substring(0, 8);
		addUser(viewer, VIEWER_PASSWORD, "viewer");
		addUser(uploader, UPLOADER_PASSWORD, "uploader");
		reference = TestUploads.upload(mvc, "reference.json");
		control = TestUploads.upload(mvc, "run-e-control.json");
	}

	@Test
	void anonymousUsersAndViewersAreRefusedEveryWriteAndNothingIsStored() throws Exception {
		String caveat = caveatId();
		String published = jdbc.sql("select id from publication limit 1")
			.query(String.class)
			.optional()
			.orElse("zzzzzzzzzz");
		long[] before = counts();
		for (RequestPostProcessor who : List.<RequestPostProcessor>of(request -> request,
				httpBasic(viewer, VIEWER_PASSWORD))) {
			for (AbstractMockHttpServletRequestBuilder<?> write : writes(caveat, published)) {
				write.with(who).with(csrf()).accept(MediaType.TEXT_HTML);
				MvcResult result = mvc.perform(write).andReturn();
				int status = result.getResponse().getStatus();
				boolean refused = status == 401 || status == 403 || (status == 302
						&& String.valueOf(result.getResponse().getRedirectedUrl()).endsWith("/login"));
				assertThat(refused).as("%s → %d", result.getRequest().getRequestURI(), status).isTrue();
			}
		}
		assertThat(counts()).isEqualTo(before);
	}

	@Test
	void uploadersWriteButOnlyAdminsRetractAndManageUsers() throws Exception {
		mvc.perform(post("/api/runs").with(httpBasic(uploader, UPLOADER_PASSWORD))
			.contentType(MediaType.APPLICATION_JSON)
			.content(TestUploads.fresh("run-d-effort-off.json"))).andExpect(status().isCreated());
		mvc.perform(post("/runs/{id}/retract", control).param("reason", "no")
			.with(httpBasic(uploader, UPLOADER_PASSWORD))
			.with(csrf())).andExpect(status().isForbidden());
		mvc.perform(post("/admin/users").param("username", "intruder")
			.param("password", "intruder-password")
			.param("role", "admin")
			.with(httpBasic(uploader, UPLOADER_PASSWORD))
			.with(csrf())).andExpect(status().isForbidden());
		mvc.perform(get("/admin/audit").with(httpBasic(uploader, UPLOADER_PASSWORD))).andExpect(status().isForbidden());
		assertThat(jdbc.sql("select count(*) from app_user where username = 'intruder'").query(Long.class).single())
			.isZero();
	}

	@Test
	void aFormPostWithoutCsrfTokenIsRefused() throws Exception {
		long[] before = counts();
		mvc.perform(post("/compare/" + reference + "..." + control + "/caveats").param("text", "no token")
			.with(httpBasic(USER, PASSWORD))).andExpect(status().isForbidden());
		mvc.perform(post("/compare/" + reference + "..." + control + "/publish").param("title", "no token")
			.with(httpBasic(USER, PASSWORD))).andExpect(status().isForbidden());
		mvc.perform(post("/account/tokens").param("name", "no token").with(httpBasic(USER, PASSWORD)))
			.andExpect(status().isForbidden());
		assertThat(counts()).isEqualTo(before);
	}

	@Test
	void aTokenWorksUntilRevokedAndThenStopsAtOnce() throws Exception {
		MvcResult created = mvc
			.perform(post("/account/tokens").param("name", "nightly CI")
				.with(httpBasic(uploader, UPLOADER_PASSWORD))
				.with(csrf()))
			.andExpect(status().is3xxRedirection())
			.andReturn();
		String token = (String) created.getFlashMap().get("newToken");
		assertThat(token).startsWith("prt_");
		assertThat(jdbc.sql("select count(*) from api_token where token_hash = ? or prefix = ?")
			.params(token, token)
			.query(Long.class)
			.single()).as("the token is not stored in clear").isZero();

		mvc.perform(post("/api/runs").header("Authorization", "Bearer " + token)
			.contentType(MediaType.APPLICATION_JSON)
			.content(TestUploads.fresh("run-c-effort-high.json"))).andExpect(status().isCreated());
		String page = mvc.perform(get("/account").with(httpBasic(uploader, UPLOADER_PASSWORD)))
			.andReturn()
			.getResponse()
			.getContentAsString(StandardCharsets.UTF_8);
		assertThat(page).contains("nightly CI").doesNotContain(token).doesNotContain(">never<");

		long id = jdbc.sql(
				"select id from api_token where name = 'nightly CI' and user_id = (select id from app_user where username = ?)")
			.param(uploader)
			.query(Long.class)
			.single();
		mvc.perform(post("/account/tokens/{id}/revoke", id).with(httpBasic(uploader, UPLOADER_PASSWORD)).with(csrf()))
			.andExpect(status().is3xxRedirection());
		long[] before = counts();
		mvc.perform(post("/api/runs").header("Authorization", "Bearer " + token)
			.contentType(MediaType.APPLICATION_JSON)
			.content(TestUploads.fresh("run-c-effort-high.json"))).andExpect(status().isUnauthorized());
		mvc.perform(post("/api/runs").header("Authorization", "Bearer prt_madeup")
			.contentType(MediaType.APPLICATION_JSON)
			.content(TestUploads.fresh("run-c-effort-high.json"))).andExpect(status().isUnauthorized());
		assertThat(counts()).isEqualTo(before);
	}

	@Test
	void repeatedFailedSignInsAreRateLimited() throws Exception {
		String name = "target-" + UUID.randomUUID().toString().substring(0, 8);
		addUser(name, "the-right-password", "uploader");
		for (int i = 0; i < 5; i++) {
			mvc.perform(get("/account").with(httpBasic(name, "wrong-" + i))).andExpect(status().isUnauthorized());
		}
		mvc.perform(get("/account").with(httpBasic(name, "the-right-password")))
			.andExpect(status().isTooManyRequests());
		mvc.perform(post("/login").param("username", name).param("password", "the-right-password").with(csrf()))
			.andExpect(status().isTooManyRequests());
	}

	@Test
	void aZipBombIsRefusedAndTheServerKeepsServing() throws Exception {
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
			zip.setLevel(6);
			zip.putNextEntry(new ZipEntry("run=0.json"));
			byte[] zeros = new byte[1 << 20];
			for (int i = 0; i < 1100; i++) {
				zip.write(zeros);
			}
			zip.closeEntry();
		}
		assertThat(bytes.size()).as("a small upload").isLessThan(10_000_000);
		long[] before = counts();
		String answer = mvc
			.perform(multipart("/api/runs/import")
				.file(new MockMultipartFile("files", "sweep.zip", "application/zip", bytes.toByteArray()))
				.param("provenance", "{}")
				.with(httpBasic(USER, PASSWORD)))
			.andExpect(status().isBadRequest())
			.andReturn()
			.getResponse()
			.getContentAsString();
		assertThat(answer).contains("sweep.zip").contains("inflate to more than");

		ByteArrayOutputStream many = new ByteArrayOutputStream();
		try (ZipOutputStream zip = new ZipOutputStream(many)) {
			for (int i = 0; i < 10_001; i++) {
				zip.putNextEntry(new ZipEntry("run=" + i + ".json"));
				zip.closeEntry();
			}
		}
		String entries = mvc
			.perform(multipart("/api/runs/import")
				.file(new MockMultipartFile("files", "many.zip", "application/zip", many.toByteArray()))
				.param("provenance", "{}")
				.with(httpBasic(USER, PASSWORD)))
			.andExpect(status().isBadRequest())
			.andReturn()
			.getResponse()
			.getContentAsString();
		assertThat(entries).contains("more than 10000 files");
		assertThat(counts()).isEqualTo(before);
		mvc.perform(get("/api/runs")).andExpect(status().isOk());
	}

	@Test
	void anOversizedUploadIsRefusedBeforeItIsReadAndTheServerKeepsServing() throws Exception {
		try (Socket socket = new Socket("localhost", port)) {
			socket.setSoTimeout(10_000);
			String auth = Base64.getEncoder().encodeToString((USER + ":" + PASSWORD).getBytes(StandardCharsets.UTF_8));
			OutputStream out = socket.getOutputStream();
			out.write(("POST /api/runs HTTP/1.1\r\nHost: localhost\r\nAuthorization: Basic " + auth
					+ "\r\nContent-Type: application/json\r\nContent-Length: 200000000\r\nConnection: close\r\n\r\n{")
				.getBytes(StandardCharsets.US_ASCII));
			out.flush();
			InputStream in = socket.getInputStream();
			StringBuilder response = new StringBuilder();
			byte[] buffer = new byte[1024];
			while (!response.toString().contains("max-request-size")) {
				int n = in.read(buffer);
				if (n < 0) {
					break;
				}
				response.append(new String(buffer, 0, n, StandardCharsets.ISO_8859_1));
			}
			assertThat(response.toString()).startsWith("HTTP/1.1 413").contains("max-request-size");
		}
		mvc.perform(get("/api/runs")).andExpect(status().isOk());
	}

	@Test
	void deeplyNestedJsonIsRefusedWithTheLimitNamed() throws Exception {
		String nested = "{\"format\": \"benchmark-run/1\", \"workload\": {\"request_params\": " + "[".repeat(200)
				+ "]".repeat(200) + "}}";
		String answer = mvc
			.perform(post("/api/runs").with(httpBasic(USER, PASSWORD))
				.contentType(MediaType.APPLICATION_JSON)
				.content(nested))
			.andExpect(status().isBadRequest())
			.andReturn()
			.getResponse()
			.getContentAsString();
		assertThat(answer).containsIgnoringCase("depth");
	}

	@Test
	void pagesCarryAContentSecurityPolicyWithoutInlineScript() throws Exception {
		String csp = mvc.perform(get("/runs/{id}", control))
			.andReturn()
			.getResponse()
			.getHeader("Content-Security-Policy");
		assertThat(csp).contains("script-src 'self'").doesNotContain("unsafe-inline").contains("object-src 'none'");
	}

	private List<AbstractMockHttpServletRequestBuilder<?>> writes(String caveat, String published) {
		String pair = reference + "..." + control;
		return List.<AbstractMockHttpServletRequestBuilder<?>>of(
				post("/api/runs").contentType(MediaType.APPLICATION_JSON)
					.content(TestUploads.fresh("run-b-effort-low.json")),
				multipart("/api/runs/import")
					.file(new MockMultipartFile("files", "x.json", "application/json", "{}".getBytes())),
				multipart("/upload").file(new MockMultipartFile("file", "x.json", "application/json",
						TestUploads.fresh("run-b-effort-low.json"))),
				post("/upload/import").param("token", "x"),
				post("/compare/" + pair + "/caveats").param("text", "refused"),
				post("/compare/" + pair + "/publish").param("title", "refused"),
				post("/runs/" + control + "/caveats").param("text", "refused"),
				post("/caveats/" + caveat + "/status").param("status", "refuted").param("reason", "refused"),
				post("/runs/" + control + "/retract").param("reason", "refused"),
				post("/published/" + published + "/retract").param("reason", "refused"),
				post("/account/tokens").param("name", "refused"),
				post("/admin/users").param("username", "refused-user")
					.param("password", "refused-password")
					.param("role", "admin"));
	}

	private String caveatId() throws Exception {
		MvcResult result = mvc
			.perform(post("/compare/" + reference + "..." + control + "/caveats").param("text", "a hypothesis")
				.param("deciding_experiment", "try it")
				.with(httpBasic(USER, PASSWORD))
				.with(csrf()))
			.andReturn();
		String location = result.getResponse().getRedirectedUrl();
		return location.substring(location.indexOf("#caveat-") + 8);
	}

	private long[] counts() {
		return List
			.of("run", "cell", "run_file", "caveat", "hypothesis_status", "publication", "retraction", "api_token",
					"app_user")
			.stream()
			.mapToLong(table -> jdbc.sql("select count(*) from " + table).query(Long.class).single())
			.toArray();
	}

	private void addUser(String name, String password, String role) throws Exception {
		mvc.perform(post("/admin/users").param("username", name)
			.param("password", password)
			.param("role", role)
			.with(httpBasic(USER, PASSWORD))
			.with(csrf())).andExpect(status().is3xxRedirection());
	}

}
