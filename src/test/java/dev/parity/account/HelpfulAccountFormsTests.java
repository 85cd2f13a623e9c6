package dev.parity.account;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

import dev.parity.FormPage;
import dev.parity.ParityTest;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;

import static dev.parity.TestUploads.PASSWORD;
import static dev.parity.TestUploads.USER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * Issue 12, item 7: the account forms name every problem next to its field at once and
 * keep what was typed (never a password); a wrong password at sign-in keeps the page to
 * go back to.
 */
@ParityTest
class HelpfulAccountFormsTests {

	static final String SECRET = AccountLifecycleTests.SECRET;

	@Autowired
	MockMvc mvc;

	@Autowired
	JdbcClient jdbc;

	@Test
	void aNewUserWithATakenNameAndACommonPasswordHearsBothNextToTheirFieldsAndTheNameAndRoleAreKept() throws Exception {
		String taken = SecurityTestUsers.add(mvc, "taken", SECRET);
		long before = users();
		FormPage page = refused(post("/admin/users").param("username", taken)
			.param("password", "qwerty123456")
			.param("role", "admin")
			.with(httpBasic(USER, PASSWORD))).after("<h2>Add a user</h2>");
		assertThat(page.messageFor("username")).isEqualTo("There is a user " + taken + " already.");
		assertThat(page.messageFor("password")).contains("most common");
		assertThat(page.messageFor("role")).isNull();
		assertThat(page.attribute("username", "value")).isEqualTo(taken);
		assertThat(page.attribute("password", "value")).isNull();
		assertThat(page.html()).containsPattern("<option selected=\"selected\">admin</option>");

		page = refused(post("/admin/users").param("username", "no spaces allowed")
			.param("password", "short")
			.param("role", "owner")
			.with(httpBasic(USER, PASSWORD))).after("<h2>Add a user</h2>");
		assertThat(page.messageFor("username")).contains("1 to 100 letters");
		assertThat(page.messageFor("password")).contains("at least 12 characters");
		assertThat(page.messageFor("role")).contains("viewer, uploader or admin");
		assertThat(page.attribute("username", "value")).isEqualTo("no spaces allowed");

		String name = AccountLifecycleTests.name("long");
		page = refused(post("/admin/users").param("username", name)
			.param("password", "my-" + name + "-" + "é".repeat(40))
			.param("role", "viewer")
			.with(httpBasic(USER, PASSWORD))).after("<h2>Add a user</h2>");
		assertThat(page.messageFor("password")).contains("72 bytes").contains("must not contain the user name");
		assertThat(page.messageFor("username")).isNull();
		assertThat(users()).isEqualTo(before);
	}

	@Test
	void aWrongCurrentPasswordAndATooShortNewOneAreBothNamedAtOnce() throws Exception {
		String name = SecurityTestUsers.add(mvc, "changer", SECRET);
		FormPage page = refused(post("/account/password").param("current", "not-the-password")
			.param("password", "short")
			.with(httpBasic(name, SECRET)));
		assertThat(page.messageFor("current")).isEqualTo("That is not your current password.");
		assertThat(page.messageFor("password")).contains("at least 12 characters");
		assertThat(page.attribute("current", "value")).isNull();
		assertThat(page.messageFor("name")).isNull();
		mvc.perform(get("/account").with(httpBasic(name, SECRET))).andExpect(status().isOk());
	}

	@Test
	void aTokenWithATooLongNameIsRefusedNextToTheNameWhichIsKept() throws Exception {
		String name = SecurityTestUsers.add(mvc, "tokens", SECRET);
		String tooLong = "n".repeat(101);
		FormPage page = refused(post("/account/tokens").param("name", tooLong).with(httpBasic(name, SECRET)));
		assertThat(page.messageFor("name")).contains("1 to 100 characters");
		assertThat(page.attribute("name", "value")).isEqualTo(tooLong);
		assertThat(page.html()).doesNotContain("id=\"new-token\"");
		assertThat(jdbc.sql("select count(*) from api_token t join app_user u on u.id = t.user_id where u.username = ?")
			.param(name)
			.query(Long.class)
			.single()).isZero();
	}

	@Test
	void aWrongPasswordAtSignInKeepsThePageToGoBackTo() throws Exception {
		String name = SecurityTestUsers.add(mvc, "returning", SECRET);
		String back = "/compare/abc...def?band=0.05";
		String retry = mvc
			.perform(post("/login").with(csrf())
				.param("username", name)
				.param("password", "wrong-password-1")
				.param("continue", back))
			.andExpect(status().is3xxRedirection())
			.andReturn()
			.getResponse()
			.getRedirectedUrl();
		assertThat(retry).isEqualTo("/login?error&continue=" + URLEncoder.encode(back, StandardCharsets.UTF_8));
		FormPage login = new FormPage(mvc.perform(get(URI.create(retry)))
			.andExpect(status().isOk())
			.andReturn()
			.getResponse()
			.getContentAsString(StandardCharsets.UTF_8));
		assertThat(login.html()).contains("Wrong user name or password.");
		assertThat(login.attribute("continue", "value")).isEqualTo(back);
		String target = mvc
			.perform(post("/login").with(csrf())
				.param("username", name)
				.param("password", SECRET)
				.param("continue", login.attribute("continue", "value")))
			.andReturn()
			.getResponse()
			.getRedirectedUrl();
		assertThat(target).isEqualTo(back);
		// A return path that leaves the site is not carried.
		String elsewhere = mvc
			.perform(post("/login").with(csrf())
				.param("username", name)
				.param("password", "wrong-password-2")
				.param("continue", "//evil.example/x"))
			.andReturn()
			.getResponse()
			.getRedirectedUrl();
		assertThat(elsewhere).isEqualTo("/login?error");
	}

	private FormPage refused(MockHttpServletRequestBuilder request) throws Exception {
		return new FormPage(mvc.perform(request.with(csrf()))
			.andExpect(status().isBadRequest())
			.andReturn()
			.getResponse()
			.getContentAsString(StandardCharsets.UTF_8));
	}

	private long users() {
		return jdbc.sql("select count(*) from app_user").query(Long.class).single();
	}

}
