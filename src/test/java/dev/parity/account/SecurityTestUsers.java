package dev.parity.account;

import java.util.UUID;

import org.springframework.test.web.servlet.MockMvc;

import static dev.parity.TestUploads.PASSWORD;
import static dev.parity.TestUploads.USER;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/** Adds uploaders with fresh names through the admin form. */
final class SecurityTestUsers {

	private SecurityTestUsers() {
	}

	static String add(MockMvc mvc, String prefix, String password) throws Exception {
		String name = prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
		mvc.perform(post("/admin/users").param("username", name)
			.param("password", password)
			.param("role", "uploader")
			.with(httpBasic(USER, PASSWORD))
			.with(csrf())).andExpect(status().is3xxRedirection());
		return name;
	}

}
