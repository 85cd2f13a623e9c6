package dev.parity;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * A {@code multipart/form-data} body written byte for byte, as curl sends it: form fields
 * ({@code -F name=value}), file parts ({@code -F name=@file}), and shapes no well-behaved
 * client sends. Posted over real HTTP, so the servlet container parses it as it would a
 * stranger's request.
 */
public final class MultipartBody {

	private static final String BOUNDARY = "------------------------parity7MA4YWxkTrZu0gW";

	private static final HttpClient CLIENT = HttpClient.newHttpClient();

	private final List<byte[]> parts = new ArrayList<>();

	/** {@code -F name=value}: a part without a file name. */
	public MultipartBody field(String name, String value) {
		return part(name, null, null, value.getBytes(StandardCharsets.UTF_8));
	}

	/**
	 * {@code -F name=@file}: a part with a file name and
	 * {@code application/octet-stream}.
	 */
	public MultipartBody file(String name, String fileName, byte[] content) {
		return part(name, fileName, "application/octet-stream", content);
	}

	/** Any part: a file name makes it a file part; a content type is sent when given. */
	public MultipartBody part(String name, @Nullable String fileName, @Nullable String contentType, byte[] content) {
		ByteArrayOutputStream part = new ByteArrayOutputStream();
		StringBuilder head = new StringBuilder("--").append(BOUNDARY)
			.append("\r\n")
			.append("Content-Disposition: form-data; name=\"")
			.append(name)
			.append('"');
		if (fileName != null) {
			head.append("; filename=\"").append(fileName).append('"');
		}
		head.append("\r\n");
		if (contentType != null) {
			head.append("Content-Type: ").append(contentType).append("\r\n");
		}
		head.append("\r\n");
		part.writeBytes(head.toString().getBytes(StandardCharsets.UTF_8));
		part.writeBytes(content);
		part.writeBytes("\r\n".getBytes(StandardCharsets.UTF_8));
		parts.add(part.toByteArray());
		return this;
	}

	/**
	 * A part with the header lines given as they are (CRLF-separated, without the blank
	 * line that ends them).
	 */
	public MultipartBody rawPart(String headers, byte[] content) {
		ByteArrayOutputStream part = new ByteArrayOutputStream();
		part.writeBytes(("--" + BOUNDARY + "\r\n" + headers + "\r\n\r\n").getBytes(StandardCharsets.UTF_8));
		part.writeBytes(content);
		part.writeBytes("\r\n".getBytes(StandardCharsets.UTF_8));
		parts.add(part.toByteArray());
		return this;
	}

	/** The {@code Content-Type} header that goes with {@link #bytes()}. */
	public static String contentType() {
		return "multipart/form-data; boundary=" + BOUNDARY;
	}

	public byte[] bytes() {
		ByteArrayOutputStream body = new ByteArrayOutputStream();
		parts.forEach(body::writeBytes);
		body.writeBytes(("--" + BOUNDARY + "--\r\n").getBytes(StandardCharsets.UTF_8));
		return body.toByteArray();
	}

	/** An answer: the status and the body. */
	public record Answer(int status, String body) {

		@Override
		public String toString() {
			return status + " " + (body.length() > 500 ? body.substring(0, 500) + "…" : body);
		}

	}

	/** Posts the body to the URL as the test administrator (HTTP Basic). */
	public Answer post(String url) {
		return post(url, bytes());
	}

	/**
	 * Posts these bytes (a body perhaps cut short) as a multipart body to the URL as the
	 * test administrator.
	 */
	public static Answer post(String url, byte[] body) {
		String basic = "Basic " + Base64.getEncoder()
			.encodeToString((TestUploads.USER + ":" + TestUploads.PASSWORD).getBytes(StandardCharsets.UTF_8));
		HttpRequest request = HttpRequest.newBuilder(URI.create(url))
			.header("Authorization", basic)
			.header("Content-Type", "multipart/form-data; boundary=" + BOUNDARY)
			.timeout(Duration.ofSeconds(90))
			.POST(HttpRequest.BodyPublishers.ofByteArray(body))
			.build();
		try {
			HttpResponse<String> response = CLIENT.send(request,
					HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
			return new Answer(response.statusCode(), response.body());
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
