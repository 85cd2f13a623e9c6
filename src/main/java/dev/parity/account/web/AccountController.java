package dev.parity.account.web;

import java.nio.charset.StandardCharsets;
import java.security.Principal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.parity.account.ApiTokens;
import dev.parity.account.AppUser;
import dev.parity.account.AppUsers;
import dev.parity.account.PasswordPolicy;
import dev.parity.audit.AuditTrail;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import org.jspecify.annotations.Nullable;

import org.springframework.data.domain.Sort;
import org.springframework.http.HttpStatus;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.stereotype.Controller;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.ui.Model;
import org.springframework.util.StringUtils;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/**
 * A user's API tokens and password, and for admins the users (role, disabling) and the
 * audit trail. A refused change answers 400 with the page and the reason.
 */
@Controller
class AccountController {

	static final Set<String> ROLES = Set.of("viewer", "uploader", "admin");

	private final ApiTokens tokens;

	private final AppUsers users;

	private final PasswordEncoder passwordEncoder;

	private final AuditTrail audit;

	private final PasswordPolicy passwordPolicy;

	AccountController(ApiTokens tokens, AppUsers users, PasswordEncoder passwordEncoder, AuditTrail audit,
			PasswordPolicy passwordPolicy) {
		this.tokens = tokens;
		this.users = users;
		this.passwordEncoder = passwordEncoder;
		this.audit = audit;
		this.passwordPolicy = passwordPolicy;
	}

	@GetMapping("/account")
	String showAccount(Principal principal, Model model) {
		model.addAttribute("pageTitle", "Your account");
		model.addAttribute("tokens", tokens.list(principal.getName()));
		emptyForm(model);
		return "account/tokens";
	}

	/**
	 * A new password for the signed-in user, given the current one. Every session of the
	 * user ends, this one too: they sign in again with the new password.
	 */
	@PostMapping("/account/password")
	@Transactional
	String changePassword(@RequestParam(defaultValue = "") String current,
			@RequestParam(defaultValue = "") String password, Principal principal, Model model,
			HttpServletRequest request, HttpServletResponse response) {
		AppUser user = users.findByUsername(principal.getName()).orElseThrow();
		Map<String, String> problems = new LinkedHashMap<>();
		if (current.getBytes(StandardCharsets.UTF_8).length > PasswordPolicy.MAX_BYTES
				|| !passwordEncoder.matches(current, user.getPasswordHash())) {
			problems.put("current", "That is not your current password.");
		}
		passwordProblems(user.getUsername(), password, problems);
		if (!problems.isEmpty()) {
			audit.refused("change-password", user.getUsername(), String.join(" ", problems.values()));
			return refused(model, response, problems, Map.of(), showAccount(principal, model));
		}
		user.changePassword(passwordEncoder.encode(password));
		users.flush();
		audit.done("change-password", user.getUsername(), null);
		HttpSession session = request.getSession(false);
		if (session != null) {
			session.invalidate();
		}
		SecurityContextHolder.clearContext();
		return "redirect:/login?changed";
	}

	@PostMapping("/account/tokens")
	String createToken(@RequestParam(defaultValue = "") String name, Principal principal, Model model,
			HttpServletResponse response, RedirectAttributes redirect) {
		try {
			ApiTokens.NewToken created = tokens.create(principal.getName(), name);
			redirect.addFlashAttribute("newToken", created.token());
			redirect.addFlashAttribute("newTokenName", created.info().name());
		}
		catch (IllegalArgumentException ex) {
			return refused(model, response, Map.of("name", ex.getMessage()), Map.of("name", name),
					showAccount(principal, model));
		}
		return "redirect:/account";
	}

	@PostMapping("/account/tokens/{id}/revoke")
	String revokeToken(@PathVariable long id, Principal principal, RedirectAttributes redirect) {
		if (!tokens.revoke(principal.getName(), id)) {
			redirect.addFlashAttribute("error", "No active token " + id + " of yours to revoke.");
		}
		return "redirect:/account";
	}

	@GetMapping("/admin/users")
	String listUsers(Model model) {
		model.addAttribute("pageTitle", "Users");
		model.addAttribute("users", users.findAll(Sort.by("username")));
		emptyForm(model);
		return "admin/users";
	}

	@PostMapping("/admin/users")
	@Transactional
	String addUser(@RequestParam(defaultValue = "") String username, @RequestParam(defaultValue = "") String password,
			@RequestParam(defaultValue = "") String role, Model model, HttpServletResponse response,
			RedirectAttributes redirect) {
		Map<String, String> problems = userProblems(username, password, role);
		if (!problems.isEmpty()) {
			audit.refused("add-user", username, String.join(" ", problems.values()));
			return refused(model, response, problems, Map.of("username", username, "role", role), listUsers(model));
		}
		users.save(new AppUser(username.strip(), passwordEncoder.encode(password), role));
		audit.done("add-user", username.strip(), "role " + role);
		redirect.addFlashAttribute("notice", "Added " + username.strip() + " as " + role + ".");
		return "redirect:/admin/users";
	}

	@PostMapping("/admin/users/{username}/role")
	@Transactional
	String changeRole(@PathVariable String username, @RequestParam String role, RedirectAttributes redirect) {
		AppUser user = users.findByUsername(username).orElse(null);
		if (user == null || !ROLES.contains(role)) {
			redirect.addFlashAttribute("error", user == null ? "No user " + username : "Unknown role " + role);
			return "redirect:/admin/users";
		}
		user.changeRole(role);
		audit.done("change-role", username, "role " + role);
		redirect.addFlashAttribute("notice", username + " is now " + role + ".");
		return "redirect:/admin/users";
	}

	/**
	 * Disables an account (it cannot sign in, its sessions and tokens stop at once) or
	 * enables it again.
	 */
	@PostMapping("/admin/users/{username}/enabled")
	@Transactional
	String enable(@PathVariable String username, @RequestParam boolean enabled, Principal principal, Model model,
			HttpServletResponse response, RedirectAttributes redirect) {
		AppUser user = users.findByUsername(username).orElse(null);
		String problem = user == null ? "No user " + username + "."
				: !enabled && user.getUsername().equals(principal.getName()) ? "You cannot disable your own account."
						: null;
		if (problem != null) {
			audit.refused(enabled ? "enable-user" : "disable-user", username, problem);
			response.setStatus(user == null ? HttpStatus.NOT_FOUND.value() : HttpStatus.BAD_REQUEST.value());
			model.addAttribute("error", problem);
			return listUsers(model);
		}
		user.setEnabled(enabled);
		audit.done(enabled ? "enable-user" : "disable-user", username, null);
		redirect.addFlashAttribute("notice",
				username + (enabled ? " can sign in again." : " is disabled: signed out, tokens stopped."));
		return "redirect:/admin/users";
	}

	@GetMapping("/admin/audit")
	String showAudit(@RequestParam(required = false) @Nullable String user,
			@RequestParam(required = false) @Nullable String action, Model model) {
		model.addAttribute("pageTitle", "Audit trail");
		List<AuditTrail.AuditEvent> events = audit.recent(500, StringUtils.hasText(user) ? user : null,
				StringUtils.hasText(action) ? action : null);
		model.addAttribute("events", events);
		model.addAttribute("user", user);
		model.addAttribute("action", action);
		return "admin/audit";
	}

	/** Every problem with a new user, by the field it concerns. */
	private Map<String, String> userProblems(String username, String password, String role) {
		Map<String, String> problems = new LinkedHashMap<>();
		if (!StringUtils.hasText(username) || !username.strip().matches("[A-Za-z0-9._@-]{1,100}")) {
			problems.put("username", "A user name is 1 to 100 letters, digits, dots, dashes, underscores or @.");
		}
		else if (users.findByUsername(username.strip()).isPresent()) {
			problems.put("username", "There is a user " + username.strip() + " already.");
		}
		passwordProblems(username, password, problems);
		if (!ROLES.contains(role)) {
			problems.put("role", "The role is viewer, uploader or admin.");
		}
		return problems;
	}

	private void passwordProblems(String username, String password, Map<String, String> problems) {
		List<String> reasons = passwordPolicy.problems(username, password);
		if (!reasons.isEmpty()) {
			problems.put("password", String.join(" ", reasons));
		}
	}

	/**
	 * The page again, answered 400, with each problem next to its field and what was
	 * typed (never a password).
	 */
	private static String refused(Model model, HttpServletResponse response, Map<String, String> problems,
			Map<String, String> typed, String view) {
		response.setStatus(HttpStatus.BAD_REQUEST.value());
		// Copies that answer containsKey(null): the page's field-error fragment is also
		// rendered where it stands.
		model.addAttribute("fieldErrors", new LinkedHashMap<>(problems));
		model.addAttribute("form", new LinkedHashMap<>(typed));
		return view;
	}

	private static void emptyForm(Model model) {
		if (!model.containsAttribute("fieldErrors")) {
			model.addAttribute("fieldErrors", new LinkedHashMap<String, String>());
			model.addAttribute("form", new LinkedHashMap<String, String>());
		}
	}

}
