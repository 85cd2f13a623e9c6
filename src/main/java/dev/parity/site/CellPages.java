package dev.parity.site;

import java.util.Locale;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpStatus;
import org.springframework.web.server.ResponseStatusException;

/**
 * Where a page of every cell is in a grid too large for one page: cells {@code from} to
 * {@code to} (exclusive) of {@code total}, and the pages before and after.
 *
 * @param from the first cell written, counted from 0
 * @param to one past the last cell written
 * @param total how many cells there are
 * @param previous the page before; {@code null} on the first
 * @param next the page after; {@code null} on the last
 */
record CellPages(int from, int to, int total, @Nullable String previous, @Nullable String next) {

	/**
	 * The page that {@code from} in the query asks for.
	 * @param base the page's path, to which the query is added
	 * @param size how many cells a page writes
	 * @throws ResponseStatusException 400 when {@code from} is not a whole number of
	 * cells to skip
	 */
	static CellPages of(String base, Map<String, String> query, int total, int size) {
		int from = from(query.get("from"));
		int start = Math.min(from, Math.max(0, total - 1) / size * size);
		int end = Math.min(start + size, total);
		String previous = start == 0 ? null
				: base + QueryStrings.with(query, "from", String.valueOf(Math.max(0, start - size)));
		String next = end >= total ? null : base + QueryStrings.with(query, "from", String.valueOf(end));
		return new CellPages(start, end, total, previous, next);
	}

	/** "Cells 1,001–2,000 of 10,000". */
	public String words() {
		return "Cells " + String.format(Locale.ROOT, "%,d–%,d of %,d", from + 1, to, total);
	}

	static int from(@Nullable String text) {
		if (text == null || text.isBlank()) {
			return 0;
		}
		String digits = text.strip();
		if (digits.length() > 9 || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
			throw new ResponseStatusException(HttpStatus.BAD_REQUEST,
					"from must be a whole number of cells to skip, not "
							+ (digits.length() > 20 ? digits.substring(0, 20) + "…" : digits));
		}
		return Integer.parseInt(digits);
	}

}
