package dev.parity.site;

import java.util.Collection;
import java.util.Set;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.parity.run.RunSummaries;
import dev.parity.run.RunSummaries.RunFilter;
import dev.parity.run.RunSummary;
import dev.parity.web.RequestChecks;

import org.springframework.data.domain.Page;
import org.springframework.stereotype.Component;

/**
 * The run lists' pages (page and API) with their totals kept: counting the runs a broad
 * search matches reads most of the run table (9,000 of 10,000 runs match "sweep": 20 ms,
 * most of page 3's time), and that number changes only when a run is added. Runs are
 * never removed, so the number of runs stored tells whether any was added: a total is
 * kept under the filter, the runs left out and that number, which the database keeps as
 * runs are added ({@link RunSummaries#stored}), read only when a total is needed — never
 * older than that number.
 */
@Component
class RunListing {

	private final RunSummaries summaries;

	private final Cache<Key, Long> totals = Caffeine.newBuilder().maximumSize(1000).build();

	RunListing(RunSummaries summaries) {
		this.summaries = summaries;
	}

	private record Key(RunFilter filter, Set<String> excluded, long runs) {
	}

	/**
	 * The runs that match, newest first.
	 * @throws org.springframework.web.server.ResponseStatusException 400 when the search
	 * has more words than {@link RequestChecks#MAX_SEARCH_WORDS}
	 */
	Page<RunSummary> search(RunFilter filter, Collection<String> excludedIds, int page, int size) {
		RequestChecks.searchWords(filter.q());
		Set<String> excluded = Set.copyOf(excludedIds);
		return summaries.search(filter, excluded, page, size, count -> {
			long runs = summaries.stored();
			if (filter.isEmpty() && excluded.isEmpty()) {
				return runs;
			}
			return totals.get(new Key(filter, excluded, runs), key -> count.getAsLong());
		});
	}

}
