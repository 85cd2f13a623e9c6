package dev.parity.history;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** Series, their runs, settings and latest analysis, in PostgreSQL. */
@Repository
public class SeriesRepository {

	private final JdbcClient jdbc;

	SeriesRepository(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	/** A series as listed. */
	public record Listed(String id, SeriesKey key, int runs, @Nullable String lastRun, int openAlerts) {
	}

	/**
	 * Creates the series of this key unless it exists, and makes the run one of its runs.
	 */
	void join(SeriesKey key, String runId) {
		jdbc.sql("""
				insert into series (id, system_name, model_repo, engine_name, harness_name, branch, workload)
				values (?, ?, ?, ?, ?, ?, ?::jsonb) on conflict (id) do nothing""")
			.params(key.id(), key.system(), key.model(), key.engine(), key.harness(), key.branch(), key.workload())
			.update();
		jdbc.sql("insert into series_run (series_id, run_id) values (?, ?) on conflict do nothing")
			.params(key.id(), runId)
			.update();
	}

	/**
	 * Whether a stored run's document says it confirms an alert
	 * ({@code context.confirms}): a rerun joins no series.
	 */
	boolean isRerun(String runId) {
		return jdbc.sql("select coalesce(provenance -> 'context' ->> 'confirms', '') <> '' from run where id = ?")
			.param(runId)
			.query(Boolean.class)
			.optional()
			.orElse(false);
	}

	/**
	 * Locks the series for the rest of the transaction, so that two updates of one series
	 * run one after the other.
	 */
	void lock(String seriesId) {
		// An advisory lock: the series row is append-only, and the application's role may
		// not lock it FOR UPDATE.
		jdbc.sql("select pg_advisory_xact_lock(hashtextextended('parity-series:' || ?, 0))")
			.param(seriesId)
			.query()
			.singleRow();
	}

	/**
	 * The series' runs in series order: recorded_at (else upload time), upload time, id.
	 * A run linked as an alert's confirmation rerun is not one of them.
	 */
	public List<String> runIds(String seriesId) {
		return jdbc.sql("""
				select r.id from series_run s join run r on r.id = s.run_id where s.series_id = ?
				and not exists (select 1 from alert_confirmation c where c.run_id = r.id)
				order by coalesce(r.recorded_at, r.uploaded_at), r.uploaded_at, r.id""")
			.param(seriesId)
			.query(String.class)
			.list();
	}

	/**
	 * The run just before {@code runId} in the series' order (as {@link #runIds}), from
	 * the series' runs as they are now, before any analysis of them; empty when none.
	 */
	Optional<String> runBefore(String seriesId, String runId) {
		return jdbc.sql("""
				select r.id from series_run s join run r on r.id = s.run_id join run self on self.id = ?
				where s.series_id = ? and r.id <> self.id
				and not exists (select 1 from alert_confirmation c where c.run_id = r.id)
				and (coalesce(r.recorded_at, r.uploaded_at), r.uploaded_at, r.id)
					< (coalesce(self.recorded_at, self.uploaded_at), self.uploaded_at, self.id)
				order by coalesce(r.recorded_at, r.uploaded_at) desc, r.uploaded_at desc, r.id desc limit 1""")
			.params(runId, seriesId)
			.query(String.class)
			.optional();
	}

	/**
	 * The series a run belongs to; none for a run linked as an alert's confirmation
	 * rerun.
	 */
	public Optional<String> seriesOf(String runId) {
		return jdbc.sql("""
				select series_id from series_run where run_id = ?
				and not exists (select 1 from alert_confirmation c where c.run_id = series_run.run_id)""")
			.param(runId)
			.query(String.class)
			.optional();
	}

	/**
	 * The series a run joined when it was stored, whether or not it is a confirmation
	 * rerun since.
	 */
	Optional<String> joined(String runId) {
		return jdbc.sql("select series_id from series_run where run_id = ?")
			.param(runId)
			.query(String.class)
			.optional();
	}

	/** Which of these runs are retracted or superseded. */
	Set<String> retracted(List<String> runIds) {
		if (runIds.isEmpty()) {
			return Set.of();
		}
		return new HashSet<>(jdbc
			.sql("select distinct subject_id from retraction where subject_kind = 'run' and subject_id = any(?)")
			.param(runIds.toArray(String[]::new))
			.query(String.class)
			.list());
	}

	/**
	 * Stores the series' analysis in place of the one before; returns its version, which
	 * no other analysis had.
	 */
	long saveAnalysis(String seriesId, int runCount, @Nullable String lastRun, String analysisJson) {
		return jdbc.sql("""
				insert into series_analysis (series_id, run_count, last_run, analysis, computed_at)
				values (?, ?, ?, ?::jsonb, now())
				on conflict (series_id) do update set run_count = excluded.run_count, last_run = excluded.last_run,
				    analysis = excluded.analysis, computed_at = excluded.computed_at,
				    version = nextval('series_analysis_version')
				returning version""").params(seriesId, runCount, lastRun, analysisJson).query(Long.class).single();
	}

	/**
	 * Which analysis of the series is stored, and whether one of its runs was retracted
	 * or superseded since it was computed (then it is stale).
	 */
	record AnalysisState(long version, boolean retractedSince) {
	}

	Optional<AnalysisState> analysisState(String seriesId) {
		return jdbc.sql("""
				select a.version, exists (select 1 from retraction r join series_run s on s.run_id = r.subject_id
				                          where r.subject_kind = 'run' and s.series_id = a.series_id
				                            and r.created_at >= a.computed_at)
				from series_analysis a where a.series_id = ?""")
			.param(seriesId)
			.query((rs, row) -> new AnalysisState(rs.getLong(1), rs.getBoolean(2)))
			.optional();
	}

	/** A stored analysis and its version. */
	record StoredJson(long version, String json) {
	}

	Optional<StoredJson> analysisJson(String seriesId) {
		return jdbc.sql("select version, analysis::text from series_analysis where series_id = ?")
			.param(seriesId)
			.query((rs, row) -> new StoredJson(rs.getLong(1), rs.getString(2)))
			.optional();
	}

	public Optional<SeriesKey> key(String seriesId) {
		return jdbc.sql("""
				select system_name, model_repo, engine_name, harness_name, branch, workload::text as workload
				from series where id = ?""")
			.param(seriesId)
			.query((rs, row) -> new SeriesKey(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
					rs.getString(5), rs.getString(6)))
			.optional();
	}

	/** The settings of a series: its overrides over the server's defaults. */
	public SeriesSettings settings(String seriesId, SeriesSettings defaults) {
		return overrides(seriesId).over(defaults);
	}

	/** A series' own settings: null where the server's default applies. */
	public record Overrides(@Nullable Integer window, @Nullable Double maxPvalue, @Nullable Double alertMagnitude,
			@Nullable Integer confirmAfter, @Nullable String vary, @Nullable Boolean alertImprovements,
			@Nullable Instant updatedAt, @Nullable String updatedBy) {

		static final Overrides NONE = new Overrides(null, null, null, null, null, null, null, null);

		public SeriesSettings over(SeriesSettings defaults) {
			return new SeriesSettings(window == null ? defaults.window() : window,
					maxPvalue == null ? defaults.maxPvalue() : maxPvalue,
					alertMagnitude == null ? defaults.alertMagnitude() : alertMagnitude,
					confirmAfter == null ? defaults.confirmAfter() : confirmAfter,
					vary == null ? defaults.vary() : vary,
					alertImprovements == null ? defaults.alertImprovements() : alertImprovements);
		}

	}

	public Overrides overrides(String seriesId) {
		return jdbc
			.sql("""
					select window_size, max_pvalue, alert_magnitude, confirm_after, vary, alert_improvements, updated_at, updated_by
					from series_settings where series_id = ?""")
			.param(seriesId)
			.query((rs, row) -> new Overrides((Integer) rs.getObject(1), (Double) rs.getObject(2),
					(Double) rs.getObject(3), (Integer) rs.getObject(4), rs.getString(5), (Boolean) rs.getObject(6),
					rs.getTimestamp(7).toInstant(), rs.getString(8)))
			.optional()
			.orElse(Overrides.NONE);
	}

	void saveOverrides(String seriesId, Overrides overrides, String by) {
		jdbc.sql(
				"""
						insert into series_settings (series_id, window_size, max_pvalue, alert_magnitude, confirm_after, vary,
						                             alert_improvements, updated_at, updated_by)
						values (?, ?, ?, ?, ?, ?, ?, now(), ?)
						on conflict (series_id) do update set window_size = excluded.window_size, max_pvalue = excluded.max_pvalue,
						    alert_magnitude = excluded.alert_magnitude, confirm_after = excluded.confirm_after, vary = excluded.vary,
						    alert_improvements = excluded.alert_improvements, updated_at = excluded.updated_at,
						    updated_by = excluded.updated_by""")
			.params(seriesId, overrides.window(), overrides.maxPvalue(), overrides.alertMagnitude(),
					overrides.confirmAfter(), overrides.vary(), overrides.alertImprovements(), by)
			.update();
	}

	/**
	 * One page of the series matching the filters (exact; null = any), most recently
	 * analysed first, then those not analysed yet by id: {@code size + 1} at most from
	 * {@code offset}, so that the caller knows whether another page follows. Reads the
	 * latest analyses by their time (an index, V50) and the series without one by id,
	 * never every series.
	 */
	public List<Listed> page(@Nullable String system, @Nullable String model, @Nullable String harness,
			@Nullable String branch, int offset, int size) {
		StringBuilder filters = new StringBuilder();
		List<Object> filterParams = new ArrayList<>();
		filter(filters, filterParams, "s.system_name", system);
		filter(filters, filterParams, "s.model_repo", model);
		filter(filters, filterParams, "s.harness_name", harness);
		filter(filters, filterParams, "s.branch", branch);
		int wanted = offset + size + 1;
		// Each branch reads its series' columns itself, so that no join reads every
		// series again.
		String sql = """
				with listed as (
				  (select s.id, s.system_name, s.model_repo, s.engine_name, s.harness_name, s.branch, s.workload,
				          a.computed_at, a.run_count, a.last_run
				   from series_analysis a join series s on s.id = a.series_id
				   where true %1$s order by a.computed_at desc, a.series_id limit ?)
				  union all
				  (select s.id, s.system_name, s.model_repo, s.engine_name, s.harness_name, s.branch, s.workload,
				          null, null, null
				   from series s
				   where not exists (select 1 from series_analysis n where n.series_id = s.id) %1$s order by s.id limit ?)
				)
				select l.id, l.system_name, l.model_repo, l.engine_name, l.harness_name, l.branch, l.workload::text,
				       coalesce(l.run_count, 0) as runs, l.last_run,
				       (select count(*) from alert al where al.series_id = l.id
				         and (select st.status from alert_status st where st.alert_id = al.id order by st.id desc limit 1) = 'open') as open_alerts
				from listed l
				order by l.computed_at desc nulls last, l.id offset ? limit ?"""
			.formatted(filters);
		List<Object> params = new ArrayList<>(filterParams);
		params.add(wanted);
		params.addAll(filterParams);
		params.add(wanted);
		params.add(offset);
		params.add(size + 1);
		return jdbc.sql(sql)
			.params(params)
			.query((rs, row) -> new Listed(rs.getString(1),
					new SeriesKey(rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5), rs.getString(6),
							rs.getString(7)),
					rs.getInt(8), rs.getString(9), rs.getInt(10)))
			.list();
	}

	private static void filter(StringBuilder sql, List<Object> params, String column, @Nullable String value) {
		if (value != null && !value.isBlank()) {
			sql.append(" and ").append(column).append(" = ?");
			params.add(value.strip());
		}
	}

	/** A series update to do: the jobs of one series, claimed together. */
	record Job(String seriesId, List<Long> ids, int attempts) {
	}

	/**
	 * Asks for the series to be brought up to date (in the caller's transaction: the
	 * upload's, for a new run).
	 */
	void enqueue(String seriesId, @Nullable String runId, String reason) {
		jdbc.sql("insert into series_job (series_id, run_id, reason) values (?, ?, ?)")
			.params(seriesId, runId, reason)
			.update();
	}

	/**
	 * Claims the jobs of one series for the rest of the transaction. Without
	 * {@code seriesId}: the due jobs of the series whose job is oldest, passing over
	 * those another transaction holds ({@code SKIP LOCKED}), so each is done once. With
	 * it: every job of that series, waiting for a transaction that holds some to end
	 * (after which the jobs it did are gone).
	 */
	Optional<Job> claim(@Nullable String seriesId) {
		String series = seriesId;
		if (series == null) {
			series = jdbc
				.sql("""
						select series_id from series_job where not_before <= now() order by id limit 1 for update skip locked""")
				.query(String.class)
				.optional()
				.orElse(null);
			if (series == null) {
				return Optional.empty();
			}
		}
		List<Object[]> rows = jdbc.sql("""
				select id, attempts from series_job where series_id = ? and (? or not_before <= now())
				order by id for update""" + (seriesId == null ? " skip locked" : ""))
			.params(series, seriesId != null)
			.query((rs, row) -> new Object[] { rs.getLong(1), rs.getInt(2) })
			.list();
		if (rows.isEmpty()) {
			return Optional.empty();
		}
		return Optional.of(new Job(series, rows.stream().map(r -> (Long) r[0]).toList(),
				rows.stream().mapToInt(r -> (Integer) r[1]).max().orElse(0)));
	}

	void done(Job job) {
		jdbc.sql("delete from series_job where id = any(?)").param(job.ids().toArray(Long[]::new)).update();
	}

	/**
	 * A job that failed waits before its next attempt: 2^attempts seconds, up to an hour.
	 */
	void failed(Job job, String error) {
		jdbc.sql("""
				update series_job set attempts = attempts + 1, last_error = ?,
				       not_before = now() + least(interval '1 hour', interval '1 second' * power(2, attempts + 1))
				where id = any(?)""")
			.params(error.length() > 2000 ? error.substring(0, 2000) : error, job.ids().toArray(Long[]::new))
			.update();
	}

	/** Whether any update of the series is waiting (done or not by another instance). */
	boolean pending(String seriesId) {
		return Boolean.TRUE.equals(jdbc.sql("select exists (select 1 from series_job where series_id = ?)")
			.param(seriesId)
			.query(Boolean.class)
			.single());
	}

	/** The newest job waiting for the series; {@code null} when none is. */
	@Nullable Long lastPending(String seriesId) {
		return jdbc.sql("select id from series_job where series_id = ? order by id desc limit 1")
			.param(seriesId)
			.query(Long.class)
			.optional()
			.orElse(null);
	}

	/** Whether a job up to {@code id} is waiting for the series. */
	boolean pendingUpTo(String seriesId, long id) {
		return Boolean.TRUE.equals(jdbc.sql("select exists (select 1 from series_job where series_id = ? and id <= ?)")
			.params(seriesId, id)
			.query(Boolean.class)
			.single());
	}

	/** The series whose updates are waiting. */
	List<String> pending() {
		return jdbc.sql("select distinct series_id from series_job").query(String.class).list();
	}

	/**
	 * The facts of these runs computed under {@code key}, by run id; runs without are
	 * missing.
	 */
	Map<String, String> factsJson(List<String> runIds, String key) {
		Map<String, String> found = new HashMap<>();
		if (runIds.isEmpty()) {
			return found;
		}
		jdbc.sql("select run_id, facts::text from series_run_facts where facts_key = ? and run_id = any(?)")
			.params(key, runIds.toArray(String[]::new))
			.query((rs, row) -> found.put(rs.getString(1), rs.getString(2)))
			.list();
		return found;
	}

	void saveFacts(String runId, String key, String factsJson) {
		jdbc.sql(
				"insert into series_run_facts (run_id, facts_key, facts) values (?, ?, ?::jsonb) on conflict do nothing")
			.params(runId, key, factsJson)
			.update();
	}

	/**
	 * The pairs kept for these runs under {@code key} (a run may have several baselines
	 * over time).
	 */
	List<String> pairsJson(List<String> runIds, String key) {
		if (runIds.isEmpty()) {
			return List.of();
		}
		return jdbc.sql("select pair::text from series_pair where facts_key = ? and run_id = any(?)")
			.params(key, runIds.toArray(String[]::new))
			.query(String.class)
			.list();
	}

	void savePair(String runId, String baselineId, String key, String pairJson) {
		jdbc.sql("""
				insert into series_pair (run_id, baseline_id, facts_key, pair) values (?, ?, ?, ?::jsonb)
				on conflict do nothing""").params(runId, baselineId, key, pairJson).update();
	}

	static JsonMapper mapper() {
		return JsonMapper.builder().propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE).build();
	}

}
