package dev.parity.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A client on loopback: single timed requests, and closed-loop load from a fixed number
 * of clients for a fixed time (each client sends its next request when the previous
 * answer has been read in full).
 */
final class Http {

	private final String base;

	private final HttpClient client;

	Http(String base) {
		this.base = base;
		this.client = HttpClient.newBuilder()
			.version(HttpClient.Version.HTTP_1_1)
			.connectTimeout(Duration.ofSeconds(10))
			.build();
	}

	/**
	 * One answer: its status, its body and how long from sending the request to reading
	 * the last byte.
	 */
	record Timed(int status, byte[] body, long nanos) {

		double millis() {
			return nanos / 1e6;
		}

		String text() {
			return new String(body, StandardCharsets.UTF_8);
		}

		Timed ok() {
			if (status != 200 && status != 201) {
				throw new AssertionError("HTTP " + status + ": " + text().substring(0, Math.min(500, text().length())));
			}
			return this;
		}
	}

	/** The server's address, e.g. {@code http://127.0.0.1:8080}. */
	String base() {
		return base;
	}

	Timed get(String path) {
		return send(HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofMinutes(2)).GET().build());
	}

	Timed postJson(String path, HttpRequest.BodyPublisher body, String user, String password) {
		String basic = Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
		return send(HttpRequest.newBuilder(URI.create(base + path))
			.timeout(Duration.ofMinutes(10))
			.header("Content-Type", "application/json")
			.header("Authorization", "Basic " + basic)
			.POST(body)
			.build());
	}

	Timed postJson(String path, byte[] body, String user, String password) {
		return postJson(path, HttpRequest.BodyPublishers.ofByteArray(body), user, password);
	}

	Timed postJson(String path, Path file, String user, String password) {
		try {
			return postJson(path, HttpRequest.BodyPublishers.ofFile(file), user, password);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** Milliseconds of a GET sent with HTTP Basic credentials. */
	double getWithBasic(String path, String user, String password) {
		String basic = Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
		return send(
				HttpRequest.newBuilder(URI.create(base + path)).header("Authorization", "Basic " + basic).GET().build())
			.ok()
			.millis();
	}

	/** A POST of a JSON body with an API token, as CI sends its run. */
	Timed postWithToken(String path, byte[] body, String token) {
		return send(HttpRequest.newBuilder(URI.create(base + path))
			.timeout(Duration.ofMinutes(2))
			.header("Content-Type", "application/json")
			.header("Authorization", "Bearer " + token)
			.POST(HttpRequest.BodyPublishers.ofByteArray(body))
			.build());
	}

	/** A GET with an API token. */
	Timed getWithToken(String path, String token) {
		return send(HttpRequest.newBuilder(URI.create(base + path))
			.timeout(Duration.ofMinutes(2))
			.header("Authorization", "Bearer " + token)
			.GET()
			.build());
	}

	private Timed send(HttpRequest request) {
		long start = System.nanoTime();
		try {
			HttpResponse<byte[]> response = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
			return new Timed(response.statusCode(), response.body(), System.nanoTime() - start);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/** What a load of concurrent clients saw. */
	record Load(String path, int clients, double seconds, long requests, long errors, long bytes, double p50,
			double p99, double max, double perSecond) {
	}

	/**
	 * {@code clients} clients each sending GET {@code path} back to back for
	 * {@code duration}; bounded.
	 */
	Load load(String path, int clients, Duration duration) {
		long deadline = System.nanoTime() + duration.toNanos();
		AtomicLong errors = new AtomicLong();
		AtomicLong bytes = new AtomicLong();
		ExecutorService pool = Executors.newFixedThreadPool(clients);
		List<Future<long[]>> results = new ArrayList<>();
		long start = System.nanoTime();
		for (int c = 0; c < clients; c++) {
			results.add(pool.submit(() -> {
				long[] latencies = new long[1024];
				int n = 0;
				// Bounded in time, and in count as a second guard.
				while (System.nanoTime() < deadline && n < 2_000_000) {
					Timed answer = get(path);
					if (answer.status() != 200) {
						errors.incrementAndGet();
					}
					bytes.addAndGet(answer.body().length);
					if (n == latencies.length) {
						latencies = Arrays.copyOf(latencies, n * 2);
					}
					latencies[n++] = answer.nanos();
				}
				return Arrays.copyOf(latencies, n);
			}));
		}
		List<Long> all = new ArrayList<>();
		for (Future<long[]> result : results) {
			try {
				for (long latency : result.get()) {
					all.add(latency);
				}
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		}
		double seconds = (System.nanoTime() - start) / 1e9;
		pool.shutdownNow();
		long[] sorted = all.stream().mapToLong(Long::longValue).sorted().toArray();
		return new Load(path, clients, seconds, sorted.length, errors.get(), bytes.get(), percentile(sorted, 50) / 1e6,
				percentile(sorted, 99) / 1e6, sorted.length == 0 ? 0 : sorted[sorted.length - 1] / 1e6,
				sorted.length / seconds);
	}

	/** The ETag of a full GET, or {@code null}. */
	String etag(String path) {
		try {
			return client
				.send(HttpRequest.newBuilder(URI.create(base + path)).GET().build(),
						HttpResponse.BodyHandlers.discarding())
				.headers()
				.firstValue("ETag")
				.orElse(null);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * {@code clients} clients each asking again back to back for {@code duration} with
	 * the tag they hold, as a cache revalidates; an answer other than 304 counts as an
	 * error.
	 */
	Load revalidate(String path, String etag, int clients, Duration duration) {
		long deadline = System.nanoTime() + duration.toNanos();
		AtomicLong errors = new AtomicLong();
		AtomicLong bytes = new AtomicLong();
		ExecutorService pool = Executors.newFixedThreadPool(clients);
		List<Future<long[]>> results = new ArrayList<>();
		HttpRequest request = HttpRequest.newBuilder(URI.create(base + path))
			.timeout(Duration.ofMinutes(2))
			.header("If-None-Match", etag)
			.GET()
			.build();
		long start = System.nanoTime();
		for (int c = 0; c < clients; c++) {
			results.add(pool.submit(() -> {
				long[] latencies = new long[1024];
				int n = 0;
				while (System.nanoTime() < deadline && n < 2_000_000) {
					Timed answer = send(request);
					if (answer.status() != 304) {
						errors.incrementAndGet();
					}
					bytes.addAndGet(answer.body().length);
					if (n == latencies.length) {
						latencies = Arrays.copyOf(latencies, n * 2);
					}
					latencies[n++] = answer.nanos();
				}
				return Arrays.copyOf(latencies, n);
			}));
		}
		List<Long> all = new ArrayList<>();
		for (Future<long[]> result : results) {
			try {
				for (long latency : result.get()) {
					all.add(latency);
				}
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		}
		double seconds = (System.nanoTime() - start) / 1e9;
		pool.shutdownNow();
		long[] sorted = all.stream().mapToLong(Long::longValue).sorted().toArray();
		return new Load(path, clients, seconds, sorted.length, errors.get(), bytes.get(), percentile(sorted, 50) / 1e6,
				percentile(sorted, 99) / 1e6, sorted.length == 0 ? 0 : sorted[sorted.length - 1] / 1e6,
				sorted.length / seconds);
	}

	static double percentile(long[] sorted, double p) {
		if (sorted.length == 0) {
			return Double.NaN;
		}
		int index = (int) Math.ceil(p / 100 * sorted.length) - 1;
		return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
	}

	static double median(List<Double> values) {
		double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
		return sorted.length % 2 == 1 ? sorted[sorted.length / 2]
				: (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
	}

}
