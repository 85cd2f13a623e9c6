package dev.parity.site;

import jakarta.servlet.http.HttpServletResponse;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;

/**
 * Who may keep an answer: {@code Cache-Control: public} only on answers that a request
 * without credentials gets identically. When reading needs a sign-in
 * ({@code parity.public-read=false}) every answer needed a credential, so it is
 * {@code private}: a shared cache or CDN never keeps it, and {@code Vary} names the
 * headers it depends on.
 */
@Component
class SharedCaching {

	/** A signed-in user's answer: their browser keeps it and asks again every time. */
	static final String PRIVATE = "private, no-cache";

	/**
	 * The headers that carry credentials: an answer that depends on who asks depends on
	 * them.
	 */
	static final String CREDENTIALS = HttpHeaders.AUTHORIZATION + ", " + HttpHeaders.COOKIE;

	private final boolean publicRead;

	SharedCaching(@Value("${parity.public-read:true}") boolean publicRead) {
		this.publicRead = publicRead;
	}

	/**
	 * Whether an answer that is the same for everybody who may read can be kept by
	 * anybody.
	 */
	boolean anonymousMayRead() {
		return publicRead;
	}

	/**
	 * {@code Cache-Control} (and {@code Vary}) for an answer that is the same for
	 * everybody who may read it.
	 * @param publicDirective what it is when anybody may read, e.g.
	 * {@code public, max-age=60}
	 */
	String forEverybody(String publicDirective) {
		return publicRead ? publicDirective : PRIVATE;
	}

	/**
	 * Writes {@code Cache-Control}, and {@code Vary} on the credentials' headers when the
	 * answer is private.
	 */
	void write(HttpServletResponse response, String cacheControl) {
		response.setHeader(HttpHeaders.CACHE_CONTROL, cacheControl);
		if (cacheControl.startsWith("private")) {
			vary(response);
		}
	}

	/** Adds the credentials' headers to {@code Vary}. */
	static void vary(HttpServletResponse response) {
		String existing = response.getHeader(HttpHeaders.VARY);
		if (existing == null || existing.isBlank()) {
			response.setHeader(HttpHeaders.VARY, CREDENTIALS);
		}
		else if (!existing.contains(HttpHeaders.AUTHORIZATION)) {
			response.setHeader(HttpHeaders.VARY, existing + ", " + CREDENTIALS);
		}
	}

}
