package dev.parity.system;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The passwords of the embedded PostgreSQL's two roles: {@value #OWNER}, the superuser
 * that owns the schema and migrates it, and {@value #APPLICATION}, the role the
 * application serves as. Made at random at the first start and kept in {@value #FILE} in
 * the data directory, readable and writable by its owner only (0600).
 *
 * @param ownerPassword the password of {@value #OWNER}
 * @param applicationPassword the password of {@value #APPLICATION}
 */
record EmbeddedCredentials(String ownerPassword, String applicationPassword) {

	static final String OWNER = "postgres";

	static final String APPLICATION = "parity_app";

	static final String FILE = "parity-credentials";

	/**
	 * What the passwords are made of: base64url, so that they never need quoting in SQL
	 * or a connection URL.
	 */
	private static final Pattern PASSWORD = Pattern.compile("[A-Za-z0-9_-]{32,}");

	private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");

	private static final boolean POSIX = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");

	private static final SecureRandom RANDOM = new SecureRandom();

	/**
	 * Every connection, local socket or TCP, signs in with a password; nothing is
	 * trusted. Written at every start, so that the rule holds whatever the file said
	 * before.
	 */
	static final String HBA = """
			# Written by Parity at every start: every connection signs in with a password (scram-sha-256).
			# The passwords are in parity-credentials beside this file.
			local   all           all                  scram-sha-256
			host    all           all   127.0.0.1/32   scram-sha-256
			host    all           all   ::1/128        scram-sha-256
			local   replication   all                  scram-sha-256
			host    replication   all   127.0.0.1/32   scram-sha-256
			host    replication   all   ::1/128        scram-sha-256
			""";

	EmbeddedCredentials {
		if (!PASSWORD.matcher(ownerPassword).matches() || !PASSWORD.matcher(applicationPassword).matches()) {
			throw new IllegalArgumentException("a password of the embedded PostgreSQL is not one Parity made");
		}
	}

	/** New random passwords (192 bits each). */
	static EmbeddedCredentials generate() {
		return new EmbeddedCredentials(randomPassword(), randomPassword());
	}

	private static String randomPassword() {
		byte[] bytes = new byte[24];
		RANDOM.nextBytes(bytes);
		return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
	}

	/**
	 * The passwords kept in this data directory, if any; the file is made private again
	 * if it was not.
	 */
	static Optional<EmbeddedCredentials> read(Path dataDir) throws IOException {
		Path file = dataDir.resolve(FILE);
		if (!Files.exists(file)) {
			return Optional.empty();
		}
		restrict(file);
		Properties properties = new Properties();
		try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
			properties.load(reader);
		}
		String owner = properties.getProperty(OWNER);
		String application = properties.getProperty(APPLICATION);
		if (owner == null || application == null) {
			throw new IllegalStateException(file + " lacks the password of " + (owner == null ? OWNER : APPLICATION)
					+ ": restore the file from a backup of the data directory");
		}
		return Optional.of(new EmbeddedCredentials(owner.strip(), application.strip()));
	}

	/**
	 * Keeps the passwords in the data directory, readable by the file's owner only,
	 * replacing the file whole.
	 */
	void write(Path dataDir) throws IOException {
		Path file = dataDir.resolve(FILE);
		Path next = privateFile(dataDir, FILE + ".new");
		Files.writeString(next,
				"""
						# The passwords of the embedded PostgreSQL's roles, made by Parity at its first start. Keep this file private:
						# %s owns the schema (a superuser); %s is the role the application serves as.
						%s=%s
						%s=%s
						"""
					.formatted(OWNER, APPLICATION, OWNER, ownerPassword, APPLICATION, applicationPassword),
				StandardCharsets.UTF_8);
		try {
			Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
		}
		catch (AtomicMoveNotSupportedException ex) {
			Files.move(next, file, StandardCopyOption.REPLACE_EXISTING);
		}
		restrict(file);
	}

	/**
	 * The owner's password alone in a new private file in {@code directory}, for
	 * {@code initdb --pwfile} (which needs an empty data directory, so the file cannot be
	 * there yet). The caller deletes it.
	 */
	Path ownerPasswordFile(Path directory) throws IOException {
		Path file = Files.createTempFile(directory, ".parity-initdb-", ".pw");
		restrict(file);
		Files.writeString(file, ownerPassword + "\n", StandardCharsets.UTF_8);
		return file;
	}

	/** Writes {@link #HBA} as the data directory's {@code pg_hba.conf}. */
	static void writeHba(Path dataDir) throws IOException {
		Files.writeString(dataDir.resolve("pg_hba.conf"), HBA, StandardCharsets.UTF_8);
	}

	private static Path privateFile(Path directory, String name) throws IOException {
		Path file = directory.resolve(name);
		Files.deleteIfExists(file);
		if (POSIX) {
			return Files.createFile(file, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
		}
		return Files.createFile(file);
	}

	private static void restrict(Path file) throws IOException {
		if (POSIX) {
			Files.setPosixFilePermissions(file, OWNER_ONLY);
		}
	}

	/** Never the passwords. */
	@Override
	public String toString() {
		return "EmbeddedCredentials[" + OWNER + ", " + APPLICATION + "]";
	}

}
