package dev.parity.site;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.parity.snapshots.ComparisonService;
import dev.parity.record.Publication;
import dev.parity.record.Publications;
import dev.parity.record.Retraction;
import dev.parity.run.RunSummaries;
import dev.parity.run.RunSummary;
import org.jspecify.annotations.Nullable;
import dev.parity.compare.ComparisonSnapshot;

import org.springframework.stereotype.Component;

/**
 * Reads the record for what pages, lists and exports must say about an item before its
 * numbers: retractions and supersessions (with the replacement's title), non-default
 * settings and the reasons given for them.
 */
@Component
class RecordNotices {

	private final Publications publications;

	private final RunSummaries summaries;

	private final ComparisonService comparisons;

	RecordNotices(Publications publications, RunSummaries summaries, ComparisonService comparisons) {
		this.publications = publications;
		this.summaries = summaries;
		this.comparisons = comparisons;
	}

	/** The notices of a run: its retraction or supersession. */
	Notices forRun(String runId, String base) {
		Retraction retraction = publications.retractionOf("run", runId).orElse(null);
		return new Notices(retraction, replacementTitle(retraction), replacementUrl(retraction, base), null, null,
				false, List.of());
	}

	/**
	 * The notices of a publication: its own retraction, its settings and their reason, no
	 * comparable cell, its runs'.
	 */
	Notices forPublication(Publication publication, ComparisonSnapshot snapshot, ComparisonPage page, String base) {
		Retraction retraction = publications.retractionOf("publication", publication.id()).orElse(null);
		String settings = snapshot.settingsNotice(comparisons.defaults());
		return new Notices(retraction, replacementTitle(retraction), replacementUrl(retraction, base), settings,
				publication.settingsReason(), publication.noComparableConfirmed(), sides(page, base));
	}

	/** The notices of a live comparison: its settings and its runs' retractions. */
	Notices forComparison(ComparisonSnapshot snapshot, ComparisonPage page, String base) {
		return new Notices(null, null, null, snapshot.settingsNotice(comparisons.defaults()), null, false,
				sides(page, base));
	}

	/**
	 * The title of what supersedes a run or publication, its id when it cannot be read.
	 */
	@Nullable String replacementTitle(@Nullable Retraction retraction) {
		if (retraction == null || retraction.replacementId() == null) {
			return null;
		}
		String id = retraction.replacementId();
		if ("run".equals(retraction.subjectKind())) {
			return summaries.findById(id).map(RunSummary::getTitle).orElse(id);
		}
		return publications.find(id).map(Publication::title).orElse(id);
	}

	/**
	 * The titles of the runs that supersede either side of a comparison, by id: its
	 * banners name them.
	 */
	Map<String, String> replacementTitles(ComparisonPage page) {
		Map<String, String> titles = new HashMap<>();
		for (ComparisonPage.RunRef side : List.of(page.baseline(), page.contender())) {
			Retraction retraction = side.retraction();
			if (retraction != null && retraction.replacementId() != null) {
				titles.put(retraction.replacementId(), replacementTitle(retraction));
			}
		}
		return titles;
	}

	/**
	 * How lists mark runs: the latest retraction or supersession of each run among these
	 * that has one.
	 */
	Map<String, Retraction> runMarks(Collection<String> runIds) {
		return publications.retractionsAmong("run", runIds);
	}

	/** How lists mark publications. */
	Map<String, Retraction> publicationMarks(Collection<Publication> listed) {
		return publications.retractionsAmong("publication", listed.stream().map(Publication::id).toList());
	}

	private static @Nullable String replacementUrl(@Nullable Retraction retraction, String base) {
		return retraction == null || retraction.replacementUrl() == null ? null : base + retraction.replacementUrl();
	}

	private List<String> sides(ComparisonPage page, String base) {
		List<String> lines = new ArrayList<>();
		for (ComparisonPage.RunRef side : List.of(page.baseline(), page.contender())) {
			if (side.retraction() != null) {
				Retraction r = side.retraction();
				lines.add("The " + (side == page.baseline() ? "baseline" : "contender") + " run “" + side.title()
						+ "” (" + base + side.url() + ") was "
						+ Notices.sentence(r, replacementTitle(r), replacementUrl(r, base))
							.replaceFirst("^Superseded", "superseded")
							.replaceFirst("^Retracted", "retracted"));
			}
		}
		return lines;
	}

}
