package dev.parity.reliability;

import java.util.ArrayList;
import java.util.List;

import dev.parity.ParityApplication;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The whole application started in this JVM on a random port against a PostgreSQL the test names, as a second
 * server of a deployment (or a first one whose database the test controls).
 */
final class AppInstance implements AutoCloseable {

	private final ConfigurableApplicationContext context;

	private AppInstance(ConfigurableApplicationContext context) {
		this.context = context;
	}

	/** Starts an instance on a new, empty embedded PostgreSQL of its own (as the test configuration sets it up). */
	static AppInstance startWithItsOwnDatabase() {
		return new AppInstance(new SpringApplicationBuilder(ParityApplication.class).run("--server.port=0",
				"--spring.main.banner-mode=off"));
	}

	/**
	 * Starts an instance on the database at {@code jdbcUrl} (user {@code postgres}, as the embedded servers have).
	 * @param settings more {@code name=value} settings
	 */
	static AppInstance start(String jdbcUrl, String... settings) {
		// A setting given twice on the command line would be read as both values joined: the given ones replace these.
		java.util.Map<String, String> named = new java.util.LinkedHashMap<>();
		for (String setting : List.of("server.port=0", "parity.db.url=" + jdbcUrl, "parity.db.user=postgres",
				"parity.db.password=", "spring.main.banner-mode=off")) {
			named.put(setting.substring(0, setting.indexOf('=')), setting);
		}
		for (String setting : settings) {
			named.put(setting.substring(0, setting.indexOf('=')), setting);
		}
		List<String> args = new ArrayList<>();
		named.values().forEach(setting -> args.add("--" + setting));
		// Command-line arguments: the test configuration on the classpath sets parity.db.url (to the embedded one).
		return new AppInstance(new SpringApplicationBuilder(ParityApplication.class).run(args.toArray(String[]::new)));
	}

	String baseUrl() {
		return "http://localhost:" + context.getEnvironment().getRequiredProperty("local.server.port");
	}

	JdbcClient jdbc() {
		return context.getBean(JdbcClient.class);
	}

	@Override
	public void close() {
		context.close();
	}

}
