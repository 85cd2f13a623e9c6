package dev.parity.compare;

import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The thresholds in force when a URL does not say otherwise: src/docs/design/PRODUCT.md's
 * defaults, overridden by configuration under the URL names, e.g.
 * {@code parity.thresholds.band=0.05}. Every page, export and preview that flags runs or
 * compares them uses these.
 *
 * @param thresholds overrides by URL name ({@code band}, {@code output_tolerance}, …,
 * {@code stat}, {@code vary}, {@code critical_flags})
 */
@ConfigurationProperties("parity")
public record ThresholdDefaults(@Nullable Map<String, String> thresholds) {

	/**
	 * The configured defaults; a bad configured value stops the application with the
	 * parameter named.
	 */
	public CompareSettings settings() {
		return thresholds == null ? CompareSettings.defaults() : CompareSettings.defaults().withOverrides(thresholds);
	}

	/** The defaults with a request's URL parameters applied. */
	public CompareSettings settings(Map<String, String> query) {
		return settings().withOverrides(query);
	}

}
