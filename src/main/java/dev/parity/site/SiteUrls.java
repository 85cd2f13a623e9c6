package dev.parity.site;

import java.net.URI;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * Absolute links (permalinks in exports) from the configured {@code parity.base-url},
 * never from the request's {@code Host} header, which anybody can forge; without a base
 * URL, links are relative to the site.
 */
@Component
class SiteUrls {

	private final String baseUrl;

	SiteUrls(@Value("${parity.base-url:}") String baseUrl) {
		String base = baseUrl.strip();
		if (!base.isEmpty()) {
			URI uri = URI.create(base);
			if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null
					|| uri.getQuery() != null || uri.getFragment() != null) {
				throw new IllegalStateException(
						"parity.base-url is an http(s) address such as https://parity.example.org, not " + base);
			}
		}
		this.baseUrl = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
	}

	/**
	 * The link to a path of the site ({@code /runs/…}): absolute with the base URL, else
	 * the path itself.
	 */
	String link(String path) {
		return baseUrl + path;
	}

}
