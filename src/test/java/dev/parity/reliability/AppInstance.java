package dev.parity.reliability;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import dev.parity.ParityApplication;
import dev.parity.system.SchemaOwner;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The whole application started in this JVM on a random port against a PostgreSQL the
 * test names, as a second server of a deployment (or a first one whose database the test
 * controls).
 */
final class AppInstance implements AutoCloseable {

	private final ConfigurableApplicationContext context;

	private AppInstance(ConfigurableApplicationContext context) {
		this.context = context;
	}

	/**
	 * Starts an instance on a new, empty embedded PostgreSQL of its own (as the test
	 * configuration sets it up).
	 */
	static AppInstance startWithItsOwnDatabase() {
		return new AppInstance(new SpringApplicationBuilder(ParityApplication.class).run("--server.port=0",
				"--spring.main.banner-mode=off"));
	}

	/**
	 * Starts an instance on the database at {@code jdbcUrl} (user {@code postgres}, as
	 * the embedded servers have).
	 * @param settings more {@code name=value} settings
	 */
	static AppInstance start(String jdbcUrl, String... settings) {
		// A setting given twice on the command line would be read as both values joined:
		// the given ones replace these.
		Map<String, String> named = new LinkedHashMap<>();
		for (String setting : List.of("server.port=0", "parity.db.url=" + jdbcUrl, "parity.db.user=postgres",
				"parity.db.password=", "spring.main.banner-mode=off")) {
			named.put(setting.substring(0, setting.indexOf('=')), setting);
		}
		for (String setting : settings) {
			named.put(setting.substring(0, setting.indexOf('=')), setting);
		}
		List<String> args = new ArrayList<>();
		named.values().forEach(setting -> args.add("--" + setting));
		// Command-line arguments: the test configuration on the classpath sets
		// parity.db.url (to the embedded one).
		return new AppInstance(new SpringApplicationBuilder(ParityApplication.class).run(args.toArray(String[]::new)));
	}

	/**
	 * Starts an instance on the embedded PostgreSQL of another, as a second server of a
	 * deployment does: Flyway as the schema's owner, the application as its own role,
	 * with the passwords that server keeps in its data directory.
	 */
	static AppInstance startBeside(SchemaOwner owner) {
		JdbcClient asOwner = JdbcClient.create(owner.dataSource());
		String dataDirectory = asOwner.sql("show data_directory").query(String.class).single();
		int port = asOwner.sql("select inet_server_port()").query(Integer.class).single();
		Properties passwords = new Properties();
		try (Reader reader = Files.newBufferedReader(Path.of(dataDirectory, "parity-credentials"))) {
			passwords.load(reader);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return new AppInstance(new SpringApplicationBuilder(ParityApplication.class).run("--server.port=0",
				"--parity.db.url=jdbc:postgresql://localhost:" + port + "/postgres",
				"--parity.db.user=" + owner.applicationUser(),
				"--parity.db.password=" + passwords.getProperty(owner.applicationUser()),
				"--parity.db.owner-user=" + owner.user(),
				"--parity.db.owner-password=" + passwords.getProperty(owner.user()), "--spring.main.banner-mode=off"));
	}

	String baseUrl() {
		return "http://localhost:" + context.getEnvironment().getRequiredProperty("local.server.port");
	}

	JdbcClient jdbc() {
		return context.getBean(JdbcClient.class);
	}

	/** A bean of this instance's context. */
	public <T> T bean(Class<T> type) {
		return context.getBean(type);
	}

	@Override
	public void close() {
		context.close();
	}

}
