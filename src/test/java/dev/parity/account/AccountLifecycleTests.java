package dev.parity.account;

import java.nio.charset.StandardCharsets;
import java.sql.Timestamp;
import java.util.UUID;

import dev.parity.ParityTest;
import dev.parity.TestUploads;
import jakarta.servlet.http.Cookie;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.ResultActions;

import static dev.parity.TestUploads.PASSWORD;
import static dev.parity.TestUploads.USER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.redirectedUrl;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * Role changes, disabled accounts and new passwords take effect at once, also on sessions
 * already open.
 */
@ParityTest
class AccountLifecycleTests {

	static final String SECRET = "a-long-enough-secret-7";

	@Autowired
	MockMvc mvc;

	@Autowired
	JdbcClient jdbc;

	@Test
	void aDemotedAdministratorLosesAdminRightsInTheSessionAlreadyOpen() throws Exception {
		String boss = name("boss");
		addUser(boss, SECRET, "admin");
		Cookie session = signIn(boss, SECRET);
		mvc.perform(get("/admin/users").cookie(session)).andExpect(status().isOk());

		mvc.perform(post("/admin/users/{name}/role", boss).param("role", "viewer")
			.with(httpBasic(USER, PASSWORD))
			.with(csrf())).andExpect(status().is3xxRedirection());

		mvc.perform(post("/admin/users/{name}/role", boss).param("role", "admin")
			.cookie(session)
			.with(csrf())
			.accept(MediaType.TEXT_HTML)).andExpect(status().is3xxRedirection()).andExpect(redirectedUrl("/login"));
		assertThat(role(boss)).isEqualTo("viewer");
		mvc.perform(get("/admin/users").cookie(session).accept(MediaType.TEXT_HTML))
			.andExpect(status().is3xxRedirection())
			.andExpect(redirectedUrl("/login"));
	}

	@Test
	void aDisabledAccountCannotSignInAndItsSessionsAndTokensStopAtOnce() throws Exception {
		String name = name("leaver");
		addUser(name, SECRET, "uploader");
		Cookie session = signIn(name, SECRET);
		String token = newToken(session);
		accountPage(token).andExpect(status().isOk());

		mvc.perform(post("/admin/users/{name}/enabled", name).param("enabled", "false")
			.with(httpBasic(USER, PASSWORD))
			.with(csrf())).andExpect(status().is3xxRedirection());
		String users = mvc.perform(get("/admin/users").with(httpBasic(USER, PASSWORD)))
			.andReturn()
			.getResponse()
			.getContentAsString(StandardCharsets.UTF_8);
		assertThat(users).contains("disabled");

		long[] before = runs();
		mvc.perform(get("/account").cookie(session).accept(MediaType.TEXT_HTML))
			.andExpect(status().is3xxRedirection())
			.andExpect(redirectedUrl("/login"));
		mvc.perform(post("/api/runs").header("Authorization", "Bearer " + token)
			.contentType(MediaType.APPLICATION_JSON)
			.content(TestUploads.fresh("run-b-effort-low.json"))).andExpect(status().isUnauthorized());
		mvc.perform(post("/api/runs").with(httpBasic(name, SECRET))
			.contentType(MediaType.APPLICATION_JSON)
			.content(TestUploads.fresh("run-b-effort-low.json"))).andExpect(status().isUnauthorized());
		mvc.perform(post("/login").param("username", name).param("password", SECRET).with(csrf()))
			.andExpect(redirectedUrl("/login?error"));
		assertThat(runs()).isEqualTo(before);

		mvc.perform(post("/admin/users/{name}/enabled", name).param("enabled", "true")
			.with(httpBasic(USER, PASSWORD))
			.with(csrf())).andExpect(status().is3xxRedirection());
		signIn(name, SECRET);
		accountPage(token).andExpect(status().isOk());
	}

	@Test
	void aTokensUseIsNotedToTheMinuteAndARevokedTokenStopsAtOnce() throws Exception {
		String name = name("ci");
		addUser(name, SECRET, "uploader");
		Cookie session = signIn(name, SECRET);
		String token = newToken(session);
		assertThat(lastUsed(name)).isNull();

		accountPage(token).andExpect(status().isOk());
		Timestamp first = lastUsed(name);
		assertThat(first).isNotNull();
		// Within the minute: the use is not written again.
		accountPage(token).andExpect(status().isOk());
		assertThat(lastUsed(name)).isEqualTo(first);
		// A use over a minute after the last one noted is noted.
		jdbc.sql("""
				update api_token set last_used_at = last_used_at - interval '2 minutes'
				where user_id = (select id from app_user where username = ?)""").param(name).update();
		accountPage(token).andExpect(status().isOk());
		assertThat(lastUsed(name)).isAfter(first);

		jdbc.sql("""
				update api_token set revoked_at = now()
				where user_id = (select id from app_user where username = ?)""").param(name).update();
		accountPage(token).andExpect(status().isUnauthorized());
	}

	/** The account page, asked for with an API token. */
	private ResultActions accountPage(String token) throws Exception {
		return mvc.perform(get("/account").header("Authorization", "Bearer " + token));
	}

	/** A new API token, made on the account page of the session's user. */
	private String newToken(Cookie session) throws Exception {
		MvcResult created = mvc.perform(post("/account/tokens").param("name", "ci").cookie(session).with(csrf()))
			.andExpect(status().is3xxRedirection())
			.andReturn();
		return (String) created.getFlashMap().get("newToken");
	}

	private Timestamp lastUsed(String name) {
		return jdbc.sql("""
				select last_used_at from api_token
				where user_id = (select id from app_user where username = ?)""")
			.param(name)
			.query(Timestamp.class)
			.optional()
			.orElse(null);
	}

	@Test
	void anAccountRemovedFromTheDatabaseEndsItsSession() throws Exception {
		String name = name("removed");
		addUser(name, SECRET, "admin");
		Cookie session = signIn(name, SECRET);
		mvc.perform(get("/admin/users").cookie(session)).andExpect(status().isOk());
		jdbc.sql("delete from app_user where username = ?").param(name).update();
		mvc.perform(get("/admin/users").cookie(session).accept(MediaType.TEXT_HTML)).andExpect(redirectedUrl("/login"));
	}

	@Test
	void anAdministratorCannotDisableThemselves() throws Exception {
		mvc.perform(post("/admin/users/{name}/enabled", USER).param("enabled", "false")
			.with(httpBasic(USER, PASSWORD))
			.with(csrf())).andExpect(status().isBadRequest());
		mvc.perform(get("/admin/users").with(httpBasic(USER, PASSWORD))).andExpect(status().isOk());
	}

	@Test
	void usersChangeTheirOwnPasswordWithTheCurrentOneAndOtherSessionsEnd() throws Exception {
		String name = name("changer");
		addUser(name, SECRET, "uploader");
		Cookie elsewhere = signIn(name, SECRET);
		Cookie here = signIn(name, SECRET);

		String wrong = mvc
			.perform(post("/account/password").param("current", "not-the-password")
				.param("password", "brand-new-secret-9")
				.cookie(here)
				.with(csrf()))
			.andExpect(status().isBadRequest())
			.andReturn()
			.getResponse()
			.getContentAsString(StandardCharsets.UTF_8);
		assertThat(wrong).contains("current password");
		mvc.perform(get("/account").with(httpBasic(name, SECRET))).andExpect(status().isOk());

		mvc.perform(post("/account/password").param("current", SECRET)
			.param("password", "brand-new-secret-9")
			.cookie(here)
			.with(csrf())).andExpect(status().is3xxRedirection());
		mvc.perform(get("/account").with(httpBasic(name, "brand-new-secret-9"))).andExpect(status().isOk());
		mvc.perform(get("/account").with(httpBasic(name, SECRET))).andExpect(status().isUnauthorized());
		mvc.perform(get("/account").cookie(elsewhere).accept(MediaType.TEXT_HTML)).andExpect(redirectedUrl("/login"));
	}

	@Test
	void commonPasswordsTheUserNameAndPasswordsOverBcryptsLimitAreRefusedWithAReason() throws Exception {
		String name = name("picky");
		assertRefused(name, "qwerty123456", "common");
		assertRefused(name, "1q2w3e4r5t6y", "common");
		assertRefused(name, "my-" + name + "-password", "user name");
		assertRefused(name, "é".repeat(40), "72 bytes");
		assertRefused(name, "x".repeat(100), "72 bytes");
		assertThat(jdbc.sql("select count(*) from app_user where username = ?").param(name).query(Long.class).single())
			.isZero();

		addUser(name, SECRET, "uploader");
		for (String bad : new String[] { "qwerty123456", name + "-secret-1", "y".repeat(73) }) {
			mvc.perform(post("/account/password").param("current", SECRET)
				.param("password", bad)
				.with(httpBasic(name, SECRET))
				.with(csrf())).andExpect(status().isBadRequest());
		}
		mvc.perform(get("/account").with(httpBasic(name, SECRET))).andExpect(status().isOk());
	}

	@Test
	void signingInWithAPasswordOverBcryptsLimitIsAWrongPasswordNotAnError() throws Exception {
		String name = name("long");
		addUser(name, SECRET, "uploader");
		mvc.perform(post("/login").param("username", name).param("password", "z".repeat(100)).with(csrf()))
			.andExpect(redirectedUrl("/login?error"));
		mvc.perform(get("/account").with(httpBasic(name, "z".repeat(100)))).andExpect(status().isUnauthorized());
	}

	private void assertRefused(String name, String password, String reason) throws Exception {
		String page = mvc
			.perform(post("/admin/users").param("username", name)
				.param("password", password)
				.param("role", "uploader")
				.with(httpBasic(USER, PASSWORD))
				.with(csrf()))
			.andExpect(status().isBadRequest())
			.andReturn()
			.getResponse()
			.getContentAsString(StandardCharsets.UTF_8);
		assertThat(page).as(password).contains(reason);
	}

	/**
	 * Signs in with the form; the session (kept in the database) is the cookie a browser
	 * would send back.
	 */
	private Cookie signIn(String name, String password) throws Exception {
		MvcResult result = mvc.perform(post("/login").param("username", name).param("password", password).with(csrf()))
			.andExpect(status().is3xxRedirection())
			.andExpect(redirectedUrl("/"))
			.andReturn();
		return result.getResponse().getCookie("JSESSIONID");
	}

	private void addUser(String name, String password, String role) throws Exception {
		mvc.perform(post("/admin/users").param("username", name)
			.param("password", password)
			.param("role", role)
			.with(httpBasic(USER, PASSWORD))
			.with(csrf())).andExpect(status().is3xxRedirection());
	}

	private String role(String name) {
		return jdbc.sql("select role from app_user where username = ?").param(name).query(String.class).single();
	}

	private long[] runs() {
		return new long[] { TestUploads.rows(jdbc).runs(), TestUploads.rows(jdbc).files() };
	}

	static String name(String prefix) {
		return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
	}

}
