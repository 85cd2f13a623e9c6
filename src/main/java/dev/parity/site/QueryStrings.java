package dev.parity.site;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

import org.springframework.util.MultiValueMap;
import org.springframework.util.StringUtils;
import org.springframework.web.util.UriComponentsBuilder;

/**
 * The URL query of a comparison's settings as the site writes it into its links and forms
 * ({@code application/x-www-form-urlencoded}, parameters without a value left out), and
 * read back from a form that carried it.
 */
final class QueryStrings {

	private QueryStrings() {
	}

	/** {@code ?name=value&…}; empty for no parameter. */
	static String of(Map<String, String> query) {
		if (query.isEmpty()) {
			return "";
		}
		return "?" + query.entrySet()
			.stream()
			.filter(e -> StringUtils.hasText(e.getValue()))
			.map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
					+ URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
			.collect(Collectors.joining("&"));
	}

	/** The URL's query with one more parameter (or this one's value replaced). */
	static String with(Map<String, String> query, String name, String value) {
		Map<String, String> more = new LinkedHashMap<>(query);
		more.put(name, value);
		return of(more);
	}

	/** The URL's query without these parameters. */
	static Map<String, String> without(Map<String, String> query, String... names) {
		Map<String, String> less = new LinkedHashMap<>(query);
		for (String name : names) {
			less.remove(name);
		}
		return less;
	}

	/**
	 * A query string carried through a form, re-encoded so nothing but parameters comes
	 * back.
	 */
	static String safe(String query) {
		String encoded = of(parse(query));
		return encoded.equals("?") ? "" : encoded;
	}

	/**
	 * The parameters of a query string (with or without its {@code ?}) in their order,
	 * decoded; a parameter given twice has its last value, one without {@code =} the
	 * empty value.
	 * @throws IllegalArgumentException when an escape ({@code %..}) is not one
	 */
	static Map<String, String> parse(String query) {
		String text = query.startsWith("?") ? query.substring(1) : query;
		MultiValueMap<String, String> parameters = UriComponentsBuilder.newInstance()
			.query(text)
			.build()
			.getQueryParams();
		Map<String, String> map = new LinkedHashMap<>();
		parameters.forEach((name, values) -> {
			if (name.isBlank()) {
				return;
			}
			String value = values.get(values.size() - 1);
			map.put(decode(name), value == null ? "" : decode(value));
		});
		return map;
	}

	private static String decode(String text) {
		return URLDecoder.decode(text, StandardCharsets.UTF_8);
	}

}
