package dev.parity.account;

import java.io.Serial;
import java.util.List;
import java.util.Locale;

import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.core.userdetails.User;

/**
 * A user signed in with a password, remembering the account's security version at that
 * moment: a session whose version is no longer the account's (role, enabled or password
 * changed since) is ended at its next request.
 */
final class SignedInUser extends User {

	@Serial
	private static final long serialVersionUID = 1L;

	private final long securityVersion;

	SignedInUser(AppUser user) {
		super(user.getUsername(), user.getPasswordHash(), user.isEnabled(), true, true, true,
				List.of(new SimpleGrantedAuthority("ROLE_" + user.getRole().toUpperCase(Locale.ROOT))));
		this.securityVersion = user.getSecurityVersion();
	}

	long securityVersion() {
		return securityVersion;
	}

	@Override
	public boolean equals(Object other) {
		return super.equals(other);
	}

	@Override
	public int hashCode() {
		return super.hashCode();
	}

}
