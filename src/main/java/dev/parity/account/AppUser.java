package dev.parity.account;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.jspecify.annotations.Nullable;

/**
 * A person (or a CI job) who signs in to Parity, with one role: viewer, uploader or
 * admin. A disabled user cannot sign in, and their sessions and API tokens stop working.
 */
@Entity
@Table(name = "app_user")
public class AppUser {

	@Id
	@GeneratedValue(strategy = GenerationType.IDENTITY)
	private @Nullable Long id;

	@Column(nullable = false, unique = true, length = 100)
	private String username;

	@Column(name = "password_hash", nullable = false, length = 200)
	private String passwordHash;

	@Column(nullable = false, length = 20)
	private String role;

	@Column(name = "created_at", nullable = false)
	private Instant createdAt;

	@Column(nullable = false)
	private boolean enabled = true;

	/**
	 * Moved on by the database whenever role, enabled or password change (see V11):
	 * sessions signed in before end.
	 */
	@Column(name = "security_version", nullable = false, insertable = false, updatable = false)
	private long securityVersion;

	protected AppUser() {
		this("", "", "viewer");
	}

	public AppUser(String username, String passwordHash, String role) {
		this.username = username;
		this.passwordHash = passwordHash;
		this.role = role;
		this.createdAt = Instant.now();
	}

	public String getUsername() {
		return username;
	}

	public String getPasswordHash() {
		return passwordHash;
	}

	public String getRole() {
		return role;
	}

	public Instant getCreatedAt() {
		return createdAt;
	}

	public boolean isEnabled() {
		return enabled;
	}

	public long getSecurityVersion() {
		return securityVersion;
	}

	/** Lets the user sign in, or stops them. */
	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	/** A new password hash. */
	public void changePassword(String passwordHash) {
		this.passwordHash = passwordHash;
	}

	/** Gives the user another role: viewer, uploader or admin. */
	public void changeRole(String role) {
		this.role = role;
	}

}
