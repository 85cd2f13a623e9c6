package dev.parity.site;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Links from the configured base URL, or relative without one; never from the request.
 */
class SiteUrlsTests {

	@Test
	void withoutABaseUrlLinksAreRelativeToTheSite() {
		assertThat(new SiteUrls("").link("/runs/abc")).isEqualTo("/runs/abc");
	}

	@Test
	void aBaseUrlPrefixesLinksWithoutADoubleSlash() {
		assertThat(new SiteUrls("https://parity.example.org/").link("/runs/abc"))
			.isEqualTo("https://parity.example.org/runs/abc");
		assertThat(new SiteUrls("https://example.org/parity").link("/runs/abc"))
			.isEqualTo("https://example.org/parity/runs/abc");
	}

	@Test
	void aBaseUrlThatIsNoHttpAddressStopsTheStartWithTheReason() {
		assertThatThrownBy(() -> new SiteUrls("javascript:alert(1)")).hasMessageContaining("parity.base-url");
		assertThatThrownBy(() -> new SiteUrls("parity.example.org")).hasMessageContaining("parity.base-url");
	}

}
