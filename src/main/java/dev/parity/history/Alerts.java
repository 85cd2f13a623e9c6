package dev.parity.history;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.parity.run.MetricDefinition;
import dev.parity.caveat.Caveats;
import dev.parity.run.RunId;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpStatus;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.web.bind.annotation.ResponseStatus;

/**
 * Alerts: what {@link AlertDecision} calls for — regression change points (improvements
 * too, where a series asks for it) of relative change at least {@code alert_magnitude},
 * with {@code confirm_after} non-greyed points after the run where they begin, large
 * against their tracks' noise and surviving a false-discovery control across the series'
 * tracks, grouped at the run where they concentrate (±1 run, never chained). After every
 * analysis the alerts are reconciled with the change points: one that moved by up to 2
 * runs moves its alert; one that disappeared withdraws its alert (a {@code withdrawn}
 * record by {@code parity}). Every status change is a new record.
 */
@Service
public class Alerts {

	/** The statuses an alert may take; {@code open} is the first record. */
	public static final List<String> STATUSES = List.of("open", "acknowledged", "explained", "false-positive",
			"withdrawn");

	static final String SYSTEM_USER = "parity";

	private static final int MOVES_WITHIN = 2;

	private final JdbcClient jdbc;

	private final JsonMapper json = SeriesRepository.mapper();

	private final ObjectProvider<AlertListener> listeners;

	private final Caveats caveats;

	Alerts(JdbcClient jdbc, ObjectProvider<AlertListener> listeners, Caveats caveats) {
		this.jdbc = jdbc;
		this.listeners = listeners;
		this.caveats = caveats;
	}

	/** One cell × metric of an alert. */
	public record Change(Map<String, Object> params, String anchor, String metric, double magnitude, double meanBefore,
			double meanAfter, double pvalue) {
	}

	/**
	 * A status record: who set it, when, why.
	 *
	 * @param caveat for {@code explained}, the caveat or hypothesis that explains the
	 * alert, if one was linked
	 */
	public record StatusRecord(String status, String by, Instant at, @Nullable String reason,
			@Nullable LinkedCaveat caveat) {
	}

	/** The caveat or hypothesis an {@code explained} record links. */
	public record LinkedCaveat(String id, String kind, String text, String url) {
	}

	/**
	 * An alert with its history, the first record {@code open}.
	 *
	 * @param confirmation what its confirmation reruns show, once both builds have at
	 * least 3 (absent before)
	 */
	public record Alert(String id, String series, String run, String status, String direction, List<Change> changes,
			List<StatusRecord> history,
			@JsonInclude(JsonInclude.Include.NON_NULL) @Nullable Confirmation confirmation) {
	}

	/**
	 * What an alert's confirmation reruns show: the replicate-group comparison of the
	 * last good build's reruns (baseline) with the alert's build's (contender), over the
	 * alert's cell × metrics.
	 *
	 * @param reruns the runs linked over both builds
	 * @param reproduced whether the change is reproduced: in most of the alert's cell ×
	 * metrics the reruns compared, the 95 % interval of the ratio lies wholly on the side
	 * of 1 the alert's change went
	 * @param ratio the ratio (alert's build ÷ good build) of the alert's largest change
	 * @param interval its 95 % interval
	 * @param anchor the cell of that change
	 * @param metric its metric
	 * @param cellsReproduced the alert's cell × metrics whose interval lies on the
	 * alert's side of 1
	 * @param cellsCompared the alert's cell × metrics the reruns compared (with an
	 * interval)
	 * @param suggestedStatus {@code false-positive} when not reproduced (a suggestion,
	 * never set by Parity); else null
	 * @param comparison the comparison of the two groups, {@code good+…...alert+…}
	 */
	public record Confirmation(int reruns, boolean reproduced, @Nullable Double ratio, @Nullable Interval interval,
			String anchor, String metric, @JsonProperty("cells_reproduced") int cellsReproduced,
			@JsonProperty("cells_compared") int cellsCompared,
			@JsonProperty("suggested_status") @Nullable String suggestedStatus, String comparison) {

		/** The metric as people say it (decode, TTFT), for the pages. */
		@JsonIgnore
		public String metricInWords() {
			return MetricDefinition.shortName(metric);
		}
	}

	/**
	 * A ratio's interval: {@code low}–{@code high} at {@code confidence}, by
	 * {@code method}.
	 */
	public record Interval(double low, double high, double confidence, String method) {
	}

	/**
	 * Something that must happen in the transaction that raises an alert (its
	 * notifications' outbox).
	 */
	public interface AlertListener {

		/**
		 * @param analysis the analysis of the alert's series that raised it
		 */
		void raised(Alert alert, SeriesAnalysis analysis);

	}

	/**
	 * Reconciles the series' alerts with its current change points, in the caller's
	 * transaction.
	 */
	void reconcile(String seriesId, SeriesAnalysis analysis, SeriesSettings settings) {
		Map<String, Integer> order = new HashMap<>();
		for (int i = 0; i < analysis.runs().size(); i++) {
			order.put(analysis.runs().get(i).id(), i);
		}
		List<Alert> current = new ArrayList<>(
				list(null, seriesId).stream().filter(a -> !a.status().equals("withdrawn")).toList());
		for (AlertDecision.Proposed proposed : AlertDecision.largestFirst(AlertDecision.decide(analysis, settings))) {
			String run = proposed.run();
			String direction = proposed.direction();
			List<Change> changes = proposed.changes()
				.stream()
				.map(cp -> new Change(cp.params(), cp.anchor(), cp.metric(), cp.magnitude(), cp.meanBefore(),
						cp.meanAfter(), cp.pvalue()))
				.toList();
			Alert match = null;
			int distance = Integer.MAX_VALUE;
			for (Alert alert : current) {
				Integer at = order.get(alert.run());
				if (at != null && alert.direction().equals(direction) && Math.abs(at - order.get(run)) <= MOVES_WITHIN
						&& Math.abs(at - order.get(run)) < distance) {
					match = alert;
					distance = Math.abs(at - order.get(run));
				}
			}
			if (match != null) {
				current.remove(match);
				if (!match.run().equals(run) || !match.changes().equals(changes)) {
					jdbc.sql("update alert set run_id = ?, changes = ?::jsonb, updated_at = now() where id = ?")
						.params(run, json.writeValueAsString(changes), match.id())
						.update();
				}
				continue;
			}
			String id = RunId.random().value();
			jdbc.sql("insert into alert (id, series_id, run_id, direction, changes) values (?, ?, ?, ?, ?::jsonb)")
				.params(id, seriesId, run, direction, json.writeValueAsString(changes))
				.update();
			record(id, "open", changes.size() + " cell × metric" + (changes.size() == 1 ? "" : "s") + " "
					+ (direction.equals("regression") ? "worse" : "better") + " from this run on", SYSTEM_USER);
			Alert raised = find(id).orElseThrow();
			listeners.orderedStream().forEach(listener -> listener.raised(raised, analysis));
		}
		for (Alert gone : current) {
			record(gone.id(), "withdrawn", "the change point is no longer found in the series", SYSTEM_USER);
		}
	}

	/** Stores what an alert's confirmation reruns show (in the caller's transaction). */
	void confirm(String alertId, Confirmation confirmation) {
		jdbc.sql("update alert set confirmation = ?::jsonb, updated_at = now() where id = ?")
			.params(json.writeValueAsString(confirmation), alertId)
			.update();
	}

	/** Adds a status record. */
	@Transactional
	public Alert setStatus(String alertId, String status, @Nullable String reason, String by) {
		return setStatus(alertId, status, reason, null, by);
	}

	/**
	 * Adds a status record; an {@code explained} one may link the caveat or hypothesis
	 * that explains the alert.
	 * @param caveatId the caveat's id, or null
	 */
	@Transactional
	public Alert setStatus(String alertId, String status, @Nullable String reason, @Nullable String caveatId,
			String by) {
		if (!STATUSES.contains(status)) {
			throw new IllegalArgumentException(
					"status must be one of " + String.join(", ", STATUSES) + ", not '" + status + "'");
		}
		if (reason != null && reason.length() > 10_000) {
			throw new IllegalArgumentException("reason is " + reason.length() + " characters; at most 10,000");
		}
		if (caveatId != null) {
			if (!status.equals("explained")) {
				throw new IllegalArgumentException("caveat links the caveat or hypothesis that explains an alert: only "
						+ "with status 'explained', not '" + status + "'");
			}
			if (caveats.find(caveatId).isEmpty()) {
				throw new IllegalArgumentException("caveat '" + caveatId
						+ "' does not exist: write it first (on the run " + "or on the comparison), then link it");
			}
		}
		if (find(alertId).isEmpty()) {
			throw new AlertNotFoundException(alertId);
		}
		record(alertId, status, reason, caveatId, by);
		return find(alertId).orElseThrow();
	}

	private void record(String alertId, String status, @Nullable String reason, String by) {
		record(alertId, status, reason, null, by);
	}

	private void record(String alertId, String status, @Nullable String reason, @Nullable String caveatId, String by) {
		jdbc.sql("insert into alert_status (alert_id, status, reason, caveat_id, created_by) values (?, ?, ?, ?, ?)")
			.params(alertId, status, reason, caveatId, by)
			.update();
	}

	public Optional<Alert> find(String id) {
		return query("where a.id = ?", List.of(id)).stream().findFirst();
	}

	/**
	 * Alerts, newest first.
	 * @param status one status; {@code null} = every status but {@code withdrawn}
	 * @param seriesId one series; {@code null} = all
	 */
	public List<Alert> list(@Nullable String status, @Nullable String seriesId) {
		StringBuilder where = new StringBuilder("where true");
		List<Object> params = new ArrayList<>();
		if (seriesId != null) {
			where.append(" and a.series_id = ?");
			params.add(seriesId);
		}
		List<Alert> alerts = query(where.toString(), params);
		return alerts.stream()
			.filter(alert -> status == null ? !alert.status().equals("withdrawn") : alert.status().equals(status))
			.toList();
	}

	private List<Alert> query(String where, List<Object> params) {
		Map<String, Object[]> rows = new LinkedHashMap<>();
		jdbc.sql("select a.id, a.series_id, a.run_id, a.direction, a.changes::text, a.confirmation::text from alert a "
				+ where + " order by a.created_at desc, a.id")
			.params(params)
			.query((rs, row) -> rows.put(rs.getString(1),
					new Object[] { rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
							rs.getString(6) }))
			.list();
		if (rows.isEmpty()) {
			return List.of();
		}
		Map<String, List<StatusRecord>> history = new HashMap<>();
		jdbc.sql("""
				select s.alert_id, s.status, s.created_by, s.created_at, s.reason, c.id, c.kind, c.text,
				       case when c.run_id is not null then '/runs/' || c.run_id
				            else '/compare/' || c.baseline_id || '...' || c.contender_id end || '#caveat-' || c.id
				from alert_status s left join caveat c on c.id = s.caveat_id
				where s.alert_id = any(?) order by s.id""")
			.param(rows.keySet().toArray(String[]::new))
			.query((rs, row) -> history.computeIfAbsent(rs.getString(1), k -> new ArrayList<>())
				.add(new StatusRecord(rs.getString(2), rs.getString(3), rs.getTimestamp(4).toInstant(), rs.getString(5),
						rs.getString(6) == null ? null
								: new LinkedCaveat(rs.getString(6), rs.getString(7), rs.getString(8),
										rs.getString(9)))))
			.list();
		List<Alert> alerts = new ArrayList<>();
		rows.forEach((id, row) -> {
			List<StatusRecord> records = history.getOrDefault(id, List.of());
			String status = records.isEmpty() ? "open" : records.get(records.size() - 1).status();
			List<Change> changes = json.readValue((String) row[3], new TypeReference<List<Change>>() {
			});
			Confirmation confirmation = row[4] == null ? null : json.readValue((String) row[4], Confirmation.class);
			alerts.add(new Alert(id, (String) row[0], (String) row[1], status, (String) row[2], changes, records,
					confirmation));
		});
		return alerts;
	}

	/**
	 * How a series' alerts (or all of them) turned out: raised (every alert, withdrawn
	 * ones too), confirmed (their reruns reproduced them), marked {@code false-positive},
	 * withdrawn (their change point went away), and the share of those raised that were
	 * confirmed.
	 *
	 * @param shareConfirmed confirmed ÷ raised; null when none was raised
	 */
	public record Quality(int raised, int confirmed, @JsonProperty("false_positive") int falsePositive, int withdrawn,
			@JsonProperty("share_confirmed") @Nullable Double shareConfirmed) {
	}

	/**
	 * The quality of one series' alerts, or of all alerts. An alert counts as confirmed
	 * while its confirmation reruns reproduce it (its {@code confirmation.reproduced});
	 * it counts as a false positive or withdrawn by its current status.
	 * @param seriesId one series; {@code null} = all
	 */
	public Quality quality(@Nullable String seriesId) {
		List<Alert> all = seriesId == null ? query("where true", List.of())
				: query("where a.series_id = ?", List.of(seriesId));
		int falsePositive = 0;
		int withdrawn = 0;
		int confirmed = 0;
		for (Alert alert : all) {
			if (alert.confirmation() != null && alert.confirmation().reproduced()) {
				confirmed++;
			}
			if (alert.status().equals("false-positive")) {
				falsePositive++;
			}
			else if (alert.status().equals("withdrawn")) {
				withdrawn++;
			}
		}
		return new Quality(all.size(), confirmed, falsePositive, withdrawn,
				all.isEmpty() ? null : (double) confirmed / all.size());
	}

	/** No alert has this id. */
	@ResponseStatus(HttpStatus.NOT_FOUND)
	public static class AlertNotFoundException extends RuntimeException {

		AlertNotFoundException(String id) {
			super("no alert " + id);
		}

	}

	static Set<String> statuses() {
		return Set.copyOf(STATUSES);
	}

}
