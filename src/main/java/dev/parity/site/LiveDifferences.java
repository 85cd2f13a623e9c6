package dev.parity.site;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.parity.snapshots.ComparisonService;
import dev.parity.snapshots.ComparisonsBusy;
import dev.parity.snapshots.FrozenResult;
import dev.parity.compare.ComparisonSnapshot;
import dev.parity.record.Publication;
import dev.parity.run.RunNotFoundException;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

import org.springframework.stereotype.Component;

/**
 * Whether the live comparison of a publication's runs, with its settings, now says
 * something else than the frozen one (what the published page's banner says). Runs are
 * immutable and a snapshot holds no record, so the answer depends only on the publication
 * and on the rules and defaults this server runs: it is kept by publication for as long
 * as the server runs — except when no turn was free to compute it, which is asked again
 * next time.
 */
@Component
class LiveDifferences {

	/**
	 * The answer when the live comparison could not be computed for want of a turn: not
	 * kept, asked again.
	 */
	static final String UNKNOWN = "\u0000unknown";

	private final ComparisonService comparisons;

	private final Cache<String, Optional<String>> kept = Caffeine.newBuilder().maximumSize(10_000).build();

	LiveDifferences(ComparisonService comparisons) {
		this.comparisons = comparisons;
	}

	/**
	 * Why the live comparison differs from the published one; {@code null} when it says
	 * the same; {@link #UNKNOWN} when no turn was free to compute it (the frozen numbers
	 * are shown now, the banner once a turn is free).
	 */
	@Nullable String of(Publication publication) {
		Optional<String> known = kept.getIfPresent(publication.id());
		if (known != null) {
			return known.orElse(null);
		}
		String differs;
		try {
			differs = compute(publication);
		}
		catch (ComparisonsBusy busy) {
			return UNKNOWN;
		}
		kept.put(publication.id(), Optional.ofNullable(differs));
		return differs;
	}

	/**
	 * Known without loading the publication, or {@code null} when it must be computed.
	 */
	@Nullable Optional<String> known(String publicationId) {
		return kept.getIfPresent(publicationId);
	}

	private @Nullable String compute(Publication publication) {
		if (publication.several()) {
			// Each contender's frozen comparison against its live one; the differences
			// named by contender.
			List<String> differences = new ArrayList<>();
			for (Publication one : FrozenResult.eachContender(publication)) {
				String differs = compute(one);
				if (differs != null) {
					differences.add("vs " + one.contenderId() + ": " + differs);
				}
			}
			return differences.isEmpty() ? null : String.join("; ", differences);
		}
		ComparisonService.Pair pair = ComparisonService.Pair.of(publication, comparisons.published(publication));
		Map<String, String> settings = PublicationController.settingsQuery(publication.settings());
		ComparisonSnapshot live;
		try {
			live = comparisons.snapshot(pair, comparisons.settings(settings));
		}
		catch (RunNotFoundException | IllegalArgumentException ex) {
			return "it cannot be recomputed: "
					+ (ex instanceof RunNotFoundException missing ? missing.getReason() : ex.getMessage());
		}
		JsonNode frozen = ComparisonSnapshot.claim(publication.result());
		if (frozen.equals(live.claim())) {
			return null;
		}
		if (!publication.rulesVersion().equals(live.rulesVersion())) {
			List<String> changes = ComparisonSnapshot.rulesChangedSince(publication.rulesVersion());
			return "rules changed since: " + publication.rulesVersion() + " → " + live.rulesVersion()
					+ (changes.isEmpty() ? "" : " (" + String.join("; ", changes) + ")");
		}
		return "the flags or numbers differ";
	}

}
