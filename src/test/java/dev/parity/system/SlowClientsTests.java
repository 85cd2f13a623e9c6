package dev.parity.system;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.parity.ParityTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.TestPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A few hundred connections that send the head of a request with a body and then stall,
 * or trickle the body a byte at a time, take no worker thread for long:
 * {@code /actuator/health} still answers within seconds while they are open, and the
 * server closes them after its timeouts (set short here).
 */
@ParityTest
@TestPropertySource(properties = { "server.tomcat.connection-timeout=3s", "parity.limits.body-min-rate=1KB",
		"parity.limits.body-grace=3s" })
class SlowClientsTests {

	private static final int STALLED = 120;

	private static final int TRICKLING = 81;

	@LocalServerPort
	int port;

	private final List<Socket> sockets = new ArrayList<>();

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	@AfterEach
	void closeWhatIsLeft() throws IOException {
		for (Socket socket : sockets) {
			socket.close();
		}
	}

	@Test
	void healthAnswersWhileHundredsOfSlowBodiesAreOpenAndTheServerClosesThem() throws Exception {
		// The sign-in form, the API and a multipart import: each waits for a body of
		// 100,000 bytes.
		assertThat(health().statusCode()).isEqualTo(200);
		String[] heads = { head("/login", "application/x-www-form-urlencoded"), head("/api/runs", "application/json"),
				head("/api/runs/import", "multipart/form-data; boundary=xyz") };
		for (int i = 0; i < STALLED + TRICKLING; i++) {
			Socket socket = new Socket(InetAddress.getLoopbackAddress(), port);
			socket.setSoTimeout(100);
			OutputStream out = socket.getOutputStream();
			out.write(heads[i % heads.length].getBytes(StandardCharsets.US_ASCII));
			out.write(i % heads.length == 2 ? "--xyz\r\n".getBytes(StandardCharsets.US_ASCII) : new byte[] { 'a' });
			out.flush();
			sockets.add(socket);
		}

		// While they are open and trickling: the health check answers at once, every
		// time.
		long started = System.nanoTime();
		int checks = 0;
		while (System.nanoTime() - started < Duration.ofSeconds(4).toNanos()) {
			trickle();
			long asked = System.nanoTime();
			assertThat(health().statusCode()).isEqualTo(200);
			assertThat(Duration.ofNanos(System.nanoTime() - asked)).as("health answered within")
				.isLessThan(Duration.ofSeconds(3));
			checks++;
		}
		assertThat(checks).isPositive();

		// Within the timeouts (3 s to stall, 3 s of grace for a trickle) and a margin,
		// every one of them is closed.
		long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
		List<Socket> open = new ArrayList<>(sockets);
		while (!open.isEmpty() && System.nanoTime() < deadline) {
			trickle();
			open.removeIf(SlowClientsTests::closedByServer);
			Thread.sleep(200);
		}
		assertThat(open).as("connections the server kept open").isEmpty();
	}

	private HttpResponse<String> health() throws Exception {
		return http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/actuator/health"))
			.timeout(Duration.ofSeconds(30))
			.build(), HttpResponse.BodyHandlers.ofString());
	}

	/**
	 * One byte more on each trickling connection (the first {@value #TRICKLING} sockets).
	 */
	private void trickle() {
		for (Socket socket : sockets.subList(0, TRICKLING)) {
			try {
				socket.getOutputStream().write('a');
				socket.getOutputStream().flush();
			}
			catch (IOException closed) {
				// The server has given up on it: what the test waits for.
			}
		}
	}

	/**
	 * Whether the server answered and closed (end of stream, or a reset), reading
	 * whatever it sent.
	 */
	private static boolean closedByServer(Socket socket) {
		try {
			InputStream in = socket.getInputStream();
			byte[] buffer = new byte[8192];
			while (true) {
				if (in.read(buffer) < 0) {
					return true;
				}
			}
		}
		catch (SocketTimeoutException stillOpen) {
			return false;
		}
		catch (IOException reset) {
			return true;
		}
	}

	private String head(String path, String contentType) {
		return "POST " + path + " HTTP/1.1\r\nHost: localhost:" + port + "\r\nContent-Type: " + contentType
				+ "\r\nContent-Length: 100000\r\n\r\n";
	}

}
