package dev.parity;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * HTTP/1.1 written by hand to the running server, for what a client library will not
 * send: a forged {@code Host}, a tab after {@code Basic}, a percent-encoded path. Reads
 * the whole answer ({@code Connection: close}).
 */
public final class RawHttp {

	private static final Pattern CSRF = Pattern
		.compile("name=\"_csrf\"\\s+value=\"([^\"]+)\"|value=\"([^\"]+)\"\\s+name=\"_csrf\"");

	private final int port;

	public RawHttp(int port) {
		this.port = port;
	}

	/** An answer: status, header lines as sent, body. */
	public record Answer(int status, List<String> headers, String body) {

		public List<String> header(String name) {
			String prefix = name.toLowerCase(Locale.ROOT) + ":";
			return headers.stream()
				.filter(h -> h.toLowerCase(Locale.ROOT).startsWith(prefix))
				.map(h -> h.substring(prefix.length()).strip())
				.toList();
		}

		/** The value of the session cookie set by this answer, or {@code null}. */
		public String sessionCookie() {
			return header("Set-Cookie").stream()
				.filter(c -> c.startsWith("JSESSIONID="))
				.map(c -> c.substring(0, c.indexOf(';')))
				.findFirst()
				.orElse(null);
		}

		/** The CSRF token of the first form on the page. */
		public String csrfToken() {
			Matcher m = CSRF.matcher(body);
			if (!m.find()) {
				throw new AssertionError("no CSRF token in " + body);
			}
			return m.group(1) != null ? m.group(1) : m.group(2);
		}
	}

	/**
	 * Sends {@code METHOD target} with these header lines (each "Name: value") and body.
	 */
	public Answer send(String method, String target, List<String> headerLines, String body) throws IOException {
		try (Socket socket = new Socket("localhost", port)) {
			socket.setSoTimeout(20_000);
			byte[] content = body.getBytes(StandardCharsets.UTF_8);
			StringBuilder request = new StringBuilder(method).append(' ').append(target).append(" HTTP/1.1\r\n");
			boolean host = headerLines.stream().anyMatch(h -> h.regionMatches(true, 0, "Host:", 0, 5));
			if (!host) {
				request.append("Host: localhost:").append(port).append("\r\n");
			}
			for (String line : headerLines) {
				request.append(line).append("\r\n");
			}
			if (content.length > 0 || !"GET".equals(method)) {
				request.append("Content-Length: ").append(content.length).append("\r\n");
			}
			request.append("Connection: close\r\n\r\n");
			OutputStream out = socket.getOutputStream();
			out.write(request.toString().getBytes(StandardCharsets.ISO_8859_1));
			out.write(content);
			out.flush();
			InputStream in = socket.getInputStream();
			ByteArrayOutputStream all = new ByteArrayOutputStream();
			in.transferTo(all);
			String text = all.toString(StandardCharsets.ISO_8859_1);
			int end = text.indexOf("\r\n\r\n");
			String head = end < 0 ? text : text.substring(0, end);
			String rest = end < 0 ? "" : text.substring(end + 4);
			String[] lines = head.split("\r\n");
			int status = Integer.parseInt(lines[0].split(" ")[1]);
			List<String> headers = new ArrayList<>(List.of(lines).subList(1, lines.length));
			Answer raw = new Answer(status, headers, rest);
			if (raw.header("Transfer-Encoding").contains("chunked")) {
				rest = dechunk(rest);
			}
			return new Answer(status, headers,
					new String(rest.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8));
		}
	}

	private static String dechunk(String chunked) {
		StringBuilder body = new StringBuilder();
		int at = 0;
		while (at < chunked.length()) {
			int lineEnd = chunked.indexOf("\r\n", at);
			int size = Integer.parseInt(chunked.substring(at, lineEnd).split(";")[0].strip(), 16);
			if (size == 0) {
				break;
			}
			body.append(chunked, lineEnd + 2, lineEnd + 2 + size);
			at = lineEnd + 2 + size + 2;
		}
		return body.toString();
	}

	public Answer get(String target, String... headerLines) throws IOException {
		return send("GET", target, List.of(headerLines), "");
	}

}
