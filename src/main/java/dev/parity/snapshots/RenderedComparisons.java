package dev.parity.snapshots;

import java.util.List;
import java.util.Map;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import org.jspecify.annotations.Nullable;

import org.springframework.stereotype.Component;

/**
 * Comparison pages as a visitor who is not signed in sees them, by everything they show:
 * the pair, the URL's parameters, the settings, the publications of the pair, and the
 * record versions of both runs (caveats, statuses, retractions;
 * {@link ComparisonService#recordVersion}). A change to the record of either run changes
 * the key, so a kept page never shows an old record.
 */
@Component
public class RenderedComparisons {

	/**
	 * What a kept comparison page was rendered from.
	 *
	 * @param publications the pair's publications, each with its retraction's kind when
	 * taken back
	 */
	public record Key(String pair, String query, Map<String, Object> settings, List<String> publications,
			long baselineRecordVersion, long contenderRecordVersion) {
	}

	private final Cache<Key, byte[]> pages = Caffeine.newBuilder()
		.maximumWeight(64L * 1024 * 1024)
		.weigher((Key key, byte[] html) -> html.length)
		.build();

	private final ComparisonMetrics metrics;

	RenderedComparisons(ComparisonMetrics metrics) {
		this.metrics = metrics;
	}

	/**
	 * The page kept under this key, or {@code null}; counted as a page cache hit or miss.
	 */
	public byte @Nullable [] kept(Key key) {
		byte[] html = pages.getIfPresent(key);
		metrics.page(html != null);
		return html;
	}

	/** Keeps a page rendered from what the key says. */
	public void keep(Key key, byte[] html) {
		pages.put(key, html);
	}

}
