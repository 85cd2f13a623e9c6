package dev.parity.reliability;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.parity.ParityApplication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The application as its own process (the test classpath,
 * {@code dev.parity.ParityApplication}), so that it can be killed the way the kernel
 * kills: {@code kill -9}, no shutdown hook, no last commit.
 */
final class ChildApp {

	private final Process process;

	private final int port;

	private ChildApp(Process process, int port) {
		this.process = process;
		this.port = port;
	}

	/**
	 * Starts the application on a free port against {@code jdbcUrl} and waits until it is
	 * healthy.
	 */
	static ChildApp start(String jdbcUrl, Path log) {
		try {
			int port = ExternalPostgres.freePort();
			Files.createDirectories(log.getParent());
			Process process = new ProcessBuilder(
					List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx1500m", "-cp",
							System.getProperty("java.class.path"), ParityApplication.class.getName(),
							"--server.port=" + port, "--parity.db.url=" + jdbcUrl, "--parity.db.user=postgres",
							"--parity.db.password=", "--spring.main.banner-mode=off"))
				.redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
				.start();
			ChildApp app = new ChildApp(process, port);
			ApiClient client = app.client();
			await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(250)).until(() -> {
				assertThat(process.isAlive()).as("the application process is running (log: %s)", log).isTrue();
				try {
					return client.get("/actuator/health").status() == 200;
				}
				catch (UncheckedIOException notListeningYet) {
					return false;
				}
			});
			return app;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	int port() {
		return port;
	}

	ApiClient client() {
		return new ApiClient("http://localhost:" + port);
	}

	/** {@code kill -9}: the process ends at once, whatever it was doing. */
	void killHard() throws InterruptedException {
		process.destroyForcibly();
		assertThat(process.waitFor()).as("exit status of a process killed with SIGKILL").isEqualTo(137);
	}

	/** A clean stop (SIGTERM), for the end of a test; nothing when it is not running. */
	void stop() throws InterruptedException {
		if (process.isAlive()) {
			process.destroy();
			if (!process.waitFor(60, TimeUnit.SECONDS)) {
				process.destroyForcibly().waitFor();
			}
		}
	}

}
