package dev.parity.reliability;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.CookieManager;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.parity.TestUploads;

/**
 * A script's view of a Parity server: real HTTP, HTTP Basic as the test administrator, as
 * CI would call it.
 */
final class ApiClient {

	/**
	 * Only a guard against a hung test: a request that takes this long is a failure
	 * whatever it answers.
	 */
	private static final Duration HUNG = Duration.ofSeconds(90);

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(30)).build();

	private final String baseUrl;

	private final String basic;

	/** A client signed in as the test administrator. */
	ApiClient(String baseUrl) {
		this(baseUrl, TestUploads.USER, TestUploads.PASSWORD);
	}

	ApiClient(String baseUrl, String user, String password) {
		this.baseUrl = baseUrl;
		this.basic = "Basic "
				+ Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
	}

	/** An answer: status, the {@code Retry-After} header if any, and the body. */
	record Answer(int status, Optional<String> retryAfter, String body) {

		@Override
		public String toString() {
			return status + (retryAfter.isPresent() ? " (Retry-After " + retryAfter.get() + ")" : "") + " "
					+ (body.length() > 300 ? body.substring(0, 300) + "…" : body);
		}

	}

	Answer upload(byte[] document) {
		return send(HttpRequest.newBuilder(URI.create(baseUrl + "/api/runs"))
			.header("Authorization", basic)
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofByteArray(document)));
	}

	/** Restores a backup: the zip as the body of {@code POST /api/admin/restore}. */
	Answer restore(byte[] zip) {
		return send(HttpRequest.newBuilder(URI.create(baseUrl + "/api/admin/restore"))
			.header("Authorization", basic)
			.header("Content-Type", "application/zip")
			.POST(HttpRequest.BodyPublishers.ofByteArray(zip)));
	}

	/**
	 * Restores a backup sent as the body, named as a script names it
	 * ({@code Content-Disposition}).
	 */
	Answer restore(byte[] zip, String fileName) {
		return send(HttpRequest.newBuilder(URI.create(baseUrl + "/api/admin/restore"))
			.header("Authorization", basic)
			.header("Content-Type", "application/zip")
			.header("Content-Disposition", "attachment; filename=\"" + fileName + "\"")
			.POST(HttpRequest.BodyPublishers.ofByteArray(zip)));
	}

	/**
	 * Signs in with the login form as a browser does: the form first (for its session and
	 * CSRF token), then the user name and password posted to it. The answer is the one to
	 * the post, redirects not followed.
	 */
	Answer signIn(String user, String password) {
		HttpClient browser = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
		try {
			HttpResponse<String> page = browser.send(HttpRequest.newBuilder(URI.create(baseUrl + "/login"))
				.header("Accept", "text/html")
				.timeout(HUNG)
				.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
			if (page.statusCode() == 503) {
				// The session store is the database: without it there is no form to post
				// (nor a session to keep).
				return new Answer(page.statusCode(), page.headers().firstValue("Retry-After"), page.body());
			}
			String form = page.body();
			Matcher token = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"").matcher(form);
			if (!token.find()) {
				throw new IllegalStateException("no CSRF token in the login form: " + form);
			}
			String body = "username=" + encode(user) + "&password=" + encode(password) + "&_csrf="
					+ encode(token.group(1));
			HttpResponse<String> response = browser.send(HttpRequest.newBuilder(URI.create(baseUrl + "/login"))
				.header("Accept", "text/html")
				.header("Content-Type", "application/x-www-form-urlencoded")
				.timeout(HUNG)
				.POST(HttpRequest.BodyPublishers.ofString(body))
				.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
			return new Answer(response.statusCode(), response.headers().firstValue("Retry-After"), response.body());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private static String encode(String text) {
		return URLEncoder.encode(text, StandardCharsets.UTF_8);
	}

	/** A page as a browser asks for it. */
	Answer page(String path) {
		return send(HttpRequest.newBuilder(URI.create(baseUrl + path)).header("Accept", "text/html").GET());
	}

	/** A read of the JSON API, anonymous as reading is public. */
	Answer get(String path) {
		return send(HttpRequest.newBuilder(URI.create(baseUrl + path)).header("Accept", "application/json").GET());
	}

	private Answer send(HttpRequest.Builder request) {
		try {
			HttpResponse<String> response = http.send(request.timeout(HUNG).build(),
					HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
			return new Answer(response.statusCode(), response.headers().firstValue("Retry-After"), response.body());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

}
