package dev.parity.run;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.LongSupplier;
import java.util.function.ToLongFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.persistence.criteria.CriteriaBuilder;
import jakarta.persistence.criteria.Predicate;
import jakarta.persistence.criteria.Root;
import org.jspecify.annotations.Nullable;

import org.springframework.data.domain.Page;
import org.springframework.data.domain.PageRequest;
import org.springframework.data.domain.Sort;
import org.springframework.data.jpa.domain.Specification;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.JpaSpecificationExecutor;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;
import org.springframework.data.support.PageableExecutionUtils;
import org.springframework.util.StringUtils;

/**
 * Lists runs, newest first, with search and filters.
 */
public interface RunSummaries extends JpaRepository<RunSummary, String>, JpaSpecificationExecutor<RunSummary> {

	/**
	 * Runs sharing a checkpoint commit and a workload fingerprint: candidates for a
	 * like-for-like comparison.
	 */
	List<RunSummary> findTop20ByModelCommitAndWorkloadFingerprintAndIdNotOrderByUploadedAtDesc(String modelCommit,
			String workloadFingerprint, String id);

	/**
	 * How many runs are stored: kept by the database as runs are added
	 * ({@code run_total}, at each upload's commit), one row read instead of every run
	 * counted.
	 */
	@Query(value = "select runs from run_total", nativeQuery = true)
	long stored();

	/** The newest runs. */
	List<RunSummary> findTop10ByOrderByUploadedAtDescIdAsc();

	/**
	 * Runs matching the filter, leaving out the given ids (e.g. retracted runs, when a
	 * reader hides them).
	 */
	default Page<RunSummary> search(RunFilter filter, Collection<String> excludedIds, int page, int size) {
		Specification<RunSummary> specification = filter.specification();
		if (!excludedIds.isEmpty()) {
			specification = specification.and((root, query, cb) -> cb.not(root.get("id").in(excludedIds)));
		}
		return findAll(specification,
				PageRequest.of(page, size, Sort.by(Sort.Order.desc("uploadedAt"), Sort.Order.asc("id"))));
	}

	/**
	 * The same page, its total (when the page alone does not tell it) asked of
	 * {@code total}, which is given the count to run: a caller may keep totals, which
	 * change only when a run is added (runs are never removed).
	 */
	default Page<RunSummary> search(RunFilter filter, Collection<String> excludedIds, int page, int size,
			ToLongFunction<LongSupplier> total) {
		Specification<RunSummary> specification = filter.specification();
		if (!excludedIds.isEmpty()) {
			specification = specification.and((root, query, cb) -> cb.not(root.get("id").in(excludedIds)));
		}
		Specification<RunSummary> matching = specification;
		PageRequest request = PageRequest.of(page, size, Sort.by(Sort.Order.desc("uploadedAt"), Sort.Order.asc("id")));
		String prefix = filter.commitPrefixAlone();
		List<RunSummary> content;
		if (prefix != null) {
			// The page's ids from the commit's index alone, then their rows.
			List<String> ids = idsWithCommitPrefix(prefix, prefix + "g", prefix + "%",
					excludedIds.isEmpty() ? List.of("") : excludedIds, (long) page * size, size);
			Map<String, RunSummary> rows = new HashMap<>();
			findAllById(ids).forEach(run -> rows.put(run.getId(), run));
			content = ids.stream().map(rows::get).filter(Objects::nonNull).toList();
		}
		else {
			content = findBy(matching, query -> query.sortBy(request.getSort()).slice(request)).getContent();
		}
		return PageableExecutionUtils.getPage(content, request, () -> total.applyAsLong(() -> count(matching)));
	}

	/**
	 * The ids of a page of the runs whose commit starts with {@code pattern}'s digits
	 * (between {@code low} and {@code high} in the commit's order), newest first, without
	 * {@code excluded} (never empty: an id no run has stands for none). Read from the
	 * index on (commit, upload time, id) alone, so that a short prefix — one digit
	 * matches a sixteenth of all runs — sorts index entries, not rows.
	 */
	@Query(value = """
			select id from run
			where model_commit >= :low and model_commit < :high and model_commit like :pattern
			  and id not in (:excluded)
			order by uploaded_at desc, id offset :offset limit :limit""", nativeQuery = true)
	List<String> idsWithCommitPrefix(@Param("low") String low, @Param("high") String high,
			@Param("pattern") String pattern, @Param("excluded") Collection<String> excluded,
			@Param("offset") long offset, @Param("limit") int limit);

	default Page<RunSummary> search(RunFilter filter, int page, int size) {
		return findAll(filter.specification(),
				PageRequest.of(page, size, Sort.by(Sort.Order.desc("uploadedAt"), Sort.Order.asc("id"))));
	}

	/**
	 * What a run list is filtered by; blank fields do not filter.
	 *
	 * @param q free text: every word must match somewhere — in the title, system, model,
	 * engine or harness name (any part of it), or as the start of the checkpoint commit
	 * @param system exact system name
	 * @param model exact model repo
	 * @param commit commit, or the start of one
	 * @param role measured or reference
	 * @param harness exact harness name
	 */
	record RunFilter(@Nullable String q, @Nullable String system, @Nullable String model, @Nullable String commit,
			@Nullable String role, @Nullable String harness) {

		/**
		 * Hexadecimal digits: every string that starts with them lies between them and
		 * them followed by "g".
		 */
		private static final Pattern HEX = Pattern.compile("[0-9a-f]{1,40}");

		/** What could be the start of a commit: 4 to 40 hexadecimal digits. */
		private static final Pattern COMMIT_PREFIX = Pattern.compile("[0-9a-f]{4,40}");

		public static RunFilter none() {
			return new RunFilter(null, null, null, null, null, null);
		}

		/**
		 * The commit prefix when it is all the filter asks (hexadecimal digits), else
		 * {@code null}.
		 */
		@Nullable String commitPrefixAlone() {
			if (!StringUtils.hasText(commit) || StringUtils.hasText(q) || StringUtils.hasText(system)
					|| StringUtils.hasText(model) || StringUtils.hasText(role) || StringUtils.hasText(harness)) {
				return null;
			}
			String prefix = commit.trim().toLowerCase(Locale.ROOT);
			return HEX.matcher(prefix).matches() ? prefix : null;
		}

		public boolean isEmpty() {
			return !StringUtils.hasText(q) && !StringUtils.hasText(system) && !StringUtils.hasText(model)
					&& !StringUtils.hasText(commit) && !StringUtils.hasText(role) && !StringUtils.hasText(harness);
		}

		Specification<RunSummary> specification() {
			return (root, query, cb) -> {
				List<Predicate> predicates = new ArrayList<>();
				if (StringUtils.hasText(q)) {
					for (String word : q.trim().toLowerCase(Locale.ROOT).split("\\s+")) {
						predicates.add(matches(root, cb, word));
					}
				}
				if (StringUtils.hasText(system)) {
					predicates.add(cb.equal(root.get("systemName"), system.trim()));
				}
				if (StringUtils.hasText(model)) {
					predicates.add(cb.equal(root.get("modelRepo"), model.trim()));
				}
				if (StringUtils.hasText(commit)) {
					String prefix = commit.trim().toLowerCase(Locale.ROOT);
					predicates.add(cb.like(root.get("modelCommit"), prefix + "%"));
					if (HEX.matcher(prefix).matches()) {
						// The same runs as a range of the commit's index, which the plan
						// of a prepared statement can
						// use (a LIKE with a parameter cannot: at 10,000 runs its count
						// read the whole table).
						predicates.add(cb.greaterThanOrEqualTo(root.get("modelCommit"), prefix));
						predicates.add(cb.lessThan(root.get("modelCommit"), prefix + "g"));
					}
				}
				if (StringUtils.hasText(role)) {
					predicates.add(cb.equal(root.get("role"), role.trim()));
				}
				if (StringUtils.hasText(harness)) {
					predicates.add(cb.equal(root.get("harnessName"), harness.trim()));
				}
				return cb.and(predicates.toArray(Predicate[]::new));
			};
		}

		/**
		 * One word of the search box: part of a name (each
		 * {@code lower(column) LIKE '%word%'} has its trigram index), or, when it could
		 * be one, the start of a commit (the pattern index).
		 */
		private static Predicate matches(Root<RunSummary> root, CriteriaBuilder cb, String word) {
			String pattern = "%" + word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%";
			List<Predicate> anywhere = new ArrayList<>(List.of(cb.like(cb.lower(root.get("title")), pattern, '\\'),
					cb.like(cb.lower(root.get("systemName")), pattern, '\\'),
					cb.like(cb.lower(root.get("modelRepo")), pattern, '\\'),
					cb.like(cb.lower(root.get("engineName")), pattern, '\\'),
					cb.like(cb.lower(root.get("harnessName")), pattern, '\\')));
			if (COMMIT_PREFIX.matcher(word).matches()) {
				anywhere.add(cb.like(root.get("modelCommit"), word + "%"));
			}
			UploadDays days = UploadDays.of(word);
			if (days != null) {
				anywhere.add(cb.and(cb.greaterThanOrEqualTo(root.get("uploadedAt"), days.from()),
						cb.lessThan(root.get("uploadedAt"), days.until())));
			}
			return cb.or(anywhere.toArray(Predicate[]::new));
		}
	}

	/**
	 * A search word that names a day or a month of upload ({@code 2026-11-30},
	 * {@code 2026-11}), as UTC instants from its start to the start of the next.
	 */
	record UploadDays(Instant from, Instant until) {

		private static final Pattern DAY_OR_MONTH = Pattern.compile("(\\d{4})-(\\d{2})(?:-(\\d{2}))?");

		static @Nullable UploadDays of(String word) {
			Matcher m = DAY_OR_MONTH.matcher(word);
			if (!m.matches()) {
				return null;
			}
			try {
				if (m.group(3) == null) {
					YearMonth month = YearMonth.of(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)));
					return new UploadDays(month.atDay(1).atStartOfDay(ZoneOffset.UTC).toInstant(),
							month.plusMonths(1).atDay(1).atStartOfDay(ZoneOffset.UTC).toInstant());
				}
				LocalDate day = LocalDate.of(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
						Integer.parseInt(m.group(3)));
				return new UploadDays(day.atStartOfDay(ZoneOffset.UTC).toInstant(),
						day.plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant());
			}
			catch (DateTimeException notADate) {
				return null;
			}
		}
	}

}
