package dev.parity.web;

import java.util.Arrays;

import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpStatus;
import org.springframework.web.server.ResponseStatusException;

/**
 * Request parameters that would otherwise reach a redirect or the database as they came:
 * refused with a 400 that names the parameter.
 */
public final class RequestChecks {

	/**
	 * The highest page number of a run list (a million pages of runs, far beyond any list
	 * that exists).
	 */
	public static final int MAX_PAGE = 1_000_000;

	private RequestChecks() {
	}

	/** The page number of a list: a whole number from 0 to {@link #MAX_PAGE}. */
	public static int page(String page) {
		String text = page.strip();
		if (text.isEmpty()) {
			return 0;
		}
		if (text.length() > 7 || !text.chars().allMatch(c -> c >= '0' && c <= '9')
				|| Integer.parseInt(text) > MAX_PAGE) {
			throw new ResponseStatusException(HttpStatus.BAD_REQUEST,
					"page is a whole number from 0 to " + MAX_PAGE + ", not " + abbreviated(page));
		}
		return Integer.parseInt(text);
	}

	/**
	 * The most words a run search takes: each is matched in five columns, so a search of
	 * thousands of words costs seconds of the database's time per request.
	 */
	public static final int MAX_SEARCH_WORDS = 32;

	/** The search box's text: at most {@link #MAX_SEARCH_WORDS} words. */
	public static void searchWords(@Nullable String q) {
		if (q == null || q.isBlank()) {
			return;
		}
		long words = Arrays.stream(q.strip().split("\\s+")).count();
		if (words > MAX_SEARCH_WORDS) {
			throw new ResponseStatusException(HttpStatus.BAD_REQUEST,
					"q takes at most " + MAX_SEARCH_WORDS + " words, not " + words);
		}
	}

	/**
	 * A parameter that goes into a redirect's Location: no line breaks or other control
	 * characters.
	 */
	public static String forRedirect(String name, String value) {
		if (value.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
			throw new ResponseStatusException(HttpStatus.BAD_REQUEST,
					name + " must not contain line breaks or other control characters");
		}
		return value;
	}

	private static String abbreviated(String text) {
		String shown = text.length() > 20 ? text.substring(0, 20) + "…" : text;
		return shown.replaceAll("\\p{Cntrl}", "?");
	}

}
