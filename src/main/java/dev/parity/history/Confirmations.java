package dev.parity.history;

import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.parity.audit.AuditTrail;
import dev.parity.compare.ComparedCell;
import dev.parity.compare.ComparedMetric;
import dev.parity.compare.Comparison;
import dev.parity.snapshots.ComparisonService;
import dev.parity.ingest.RunFileRejected;
import dev.parity.run.Provenance;
import dev.parity.run.Role;
import dev.parity.run.Run;
import dev.parity.run.RunId;
import dev.parity.run.RunRepository;
import dev.parity.run.RunStored;
import dev.parity.stats.RatioInterval;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.event.EventListener;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.event.TransactionPhase;
import org.springframework.transaction.event.TransactionalEventListener;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Confirmation reruns of alerts. A run that reruns the alert's build or the last good
 * build before it (known by its engine commit) is linked to the alert in its run document
 * ({@code "context": {"confirms": "<alert id>"}}, in the upload's transaction) or
 * afterwards through the API; links are append-only. A rerun is not a point of its
 * series: a run linked in its document never joins it, one linked afterwards leaves it at
 * the series' next update. Once each build has at least 3 reruns, the two groups are
 * compared as replicates and the alert gains its confirmation; reproduced, the webhooks
 * get an {@code alert.confirmed} delivery.
 */
@Service
public class Confirmations {

	/** Where a run document names the alert it confirms. */
	public static final String DOCUMENT_FIELD = "$.context.confirms";

	private static final Logger log = LoggerFactory.getLogger(Confirmations.class);

	private final JdbcClient jdbc;

	private final Alerts alerts;

	private final AlertControls controls;

	private final SeriesRepository series;

	private final HistorySettings settings;

	private final ComparisonService comparisons;

	private final Webhooks webhooks;

	private final AuditTrail audit;

	private final TransactionTemplate transaction;

	private final RunRepository runs;

	Confirmations(JdbcClient jdbc, RunRepository runs, Alerts alerts, AlertControls controls, SeriesRepository series,
			HistorySettings settings, ComparisonService comparisons, Webhooks webhooks, AuditTrail audit,
			PlatformTransactionManager transactions) {
		this.jdbc = jdbc;
		this.runs = runs;
		this.alerts = alerts;
		this.controls = controls;
		this.series = series;
		this.settings = settings;
		this.comparisons = comparisons;
		this.webhooks = webhooks;
		this.audit = audit;
		this.transaction = new TransactionTemplate(transactions);
		this.transaction.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
	}

	/**
	 * A run linked as a rerun of one of an alert's builds.
	 *
	 * @param build {@code alert} (the alert's build) or {@code good} (the last good
	 * build)
	 * @param linkedIn {@code document} or {@code api}
	 */
	public record Linked(String alert, String run, String build, @JsonProperty("engine_commit") String engineCommit,
			@JsonProperty("linked_in") String linkedIn, @JsonProperty("linked_by") String linkedBy,
			@JsonProperty("linked_at") Instant linkedAt) {
	}

	/**
	 * A link that cannot be stored, naming the request's field and why; nothing is
	 * stored.
	 */
	public static class Rejected extends RuntimeException {

		private final String field;

		private final boolean unknownAlert;

		Rejected(String field, String message, boolean unknownAlert) {
			super(message);
			this.field = field;
			this.unknownAlert = unknownAlert;
		}

		/**
		 * The field the problem is in: {@code run}, or {@code alert} for the alert of the
		 * URL.
		 */
		public String field() {
			return field;
		}

		/**
		 * Whether the problem is an alert that does not exist (a 404), rather than a
		 * request written wrong (400).
		 */
		public boolean unknownAlert() {
			return unknownAlert;
		}

	}

	/**
	 * Links a stored run as a rerun of one of the alert's builds; linking it again
	 * changes nothing. The run leaves its series at the series' next update (asked for
	 * here).
	 * @return the link, new or as made before
	 * @throws Rejected naming the field and why; nothing is stored then
	 */
	@Transactional
	public Linked link(String alertId, String runId, String user) {
		Alerts.Alert alert = alerts.find(alertId)
			.orElseThrow(() -> new Rejected("alert", "No alert with id '" + alertId + "'", true));
		if (!RunId.isValid(runId)) {
			throw new Rejected("run", "No run with id '" + runId + "'", false);
		}
		Run run = runs.find(new RunId(runId))
			.orElseThrow(() -> new Rejected("run", "No run with id '" + runId + "'", false));
		Linked linked = link(alert, runId, run.role(), run.provenance(), user, "api", "run");
		// A rerun is no point of its series: the series is analysed again without it.
		series.joined(runId).ifPresent(seriesId -> series.enqueue(seriesId, runId, "confirmation"));
		return linked;
	}

	private Linked link(Alerts.Alert alert, String runId, Role role, Provenance provenance, String user,
			String linkedIn, String field) {
		Optional<Linked> before = linked(jdbc, alert.id()).stream()
			.filter(link -> link.run().equals(runId))
			.findFirst();
		if (before.isPresent()) {
			return before.get();
		}
		String other = jdbc.sql("select alert_id from alert_confirmation where run_id = ?")
			.param(runId)
			.query(String.class)
			.optional()
			.orElse(null);
		if (other != null) {
			throw new Rejected(field,
					"run " + runId + " already confirms alert " + other + ": a rerun confirms one alert", false);
		}
		if (role != Role.MEASURED) {
			throw new Rejected(field, "run " + runId + " is a " + role.id() + " run: a rerun is a measured run", false);
		}
		SeriesKey key = SeriesKey.of(provenance, settings.defaultBranch());
		if (!key.id().equals(alert.series())) {
			throw new Rejected(field, "run " + runId + " is not of the alert's series " + alert.series()
					+ ": a rerun has its system, model, engine, harness, declared workload and branch", false);
		}
		AlertControls.Plan plan = controls.plan(alert.id(), false);
		AlertControls.Rerun bad = plan.bad();
		AlertControls.Rerun good = plan.good();
		String commit = provenance.engine().commit() == null ? null : provenance.engine().commit().value();
		String builds = "the alert's build " + describe(bad.engineCommit()) + " (run " + bad.run() + ")"
				+ (good == null ? "; the segment has no clean run before it, so no good build to rerun"
						: " or the last good build " + describe(good.engineCommit()) + " (run " + good.run() + ")");
		if (commit == null) {
			throw new Rejected(field, "run " + runId + " records no engine.commit: a rerun's build is known by its "
					+ "engine commit, " + builds, false);
		}
		if (good != null && commit.equalsIgnoreCase(String.valueOf(bad.engineCommit()))
				&& commit.equalsIgnoreCase(String.valueOf(good.engineCommit()))) {
			throw new Rejected(field, "the alert's build and the last good build are both engine commit " + commit
					+ ": a rerun cannot tell them apart", false);
		}
		String build;
		if (commit.equalsIgnoreCase(String.valueOf(bad.engineCommit()))) {
			build = "alert";
		}
		else if (good != null && commit.equalsIgnoreCase(String.valueOf(good.engineCommit()))) {
			build = "good";
		}
		else {
			throw new Rejected(field, "run " + runId + " ran engine commit " + commit + ", which is neither " + builds,
					false);
		}
		jdbc.sql("""
				insert into alert_confirmation (id, alert_id, run_id, build, engine_commit, linked_in, linked_by)
				values (?, ?, ?, ?, ?, ?, ?)""")
			.params(RunId.random().value(), alert.id(), runId, build, commit.toLowerCase(Locale.ROOT), linkedIn, user)
			.update();
		audit.done("confirm-alert", runId, "rerun of the " + (build.equals("alert") ? "alert's" : "last good")
				+ " build of alert " + alert.id() + " (" + linkedIn + ")");
		return linked(jdbc, alert.id()).stream().filter(link -> link.run().equals(runId)).findFirst().orElseThrow();
	}

	private static String describe(@Nullable String commit) {
		return commit == null ? "(no engine commit recorded)" : commit;
	}

	/** The runs linked as reruns of an alert, the first linked first. */
	static List<Linked> linked(JdbcClient jdbc, String alertId) {
		return jdbc.sql("""
				select alert_id, run_id, build, engine_commit, linked_in, linked_by, linked_at from alert_confirmation
				where alert_id = ? order by linked_at, id""")
			.param(alertId)
			.query((rs, n) -> new Linked(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
					rs.getString(5), rs.getString(6), rs.getTimestamp(7).toInstant()))
			.list();
	}

	/** The alert a stored run confirms, as its document says; null when it says none. */
	private @Nullable String confirms(String runId) {
		return jdbc.sql("select provenance -> 'context' ->> 'confirms' from run where id = ?")
			.param(runId)
			.query(String.class)
			.optional()
			.orElse(null);
	}

	/**
	 * A run stored with {@code context.confirms} in its document is linked in the storing
	 * transaction: a link that cannot be stored rejects the upload, and nothing is
	 * stored.
	 */
	@EventListener
	void runStored(RunStored stored) {
		String alertId = confirms(stored.id().value());
		if (alertId == null) {
			return;
		}
		Alerts.Alert alert = alerts.find(alertId)
			.orElseThrow(() -> new RunFileRejected(DOCUMENT_FIELD,
					"No alert with id '" + alertId + "': a rerun names the alert it confirms"));
		try {
			link(alert, stored.id().value(), stored.role(), stored.provenance(), uploader(stored.id().value()),
					"document", "confirms");
		}
		catch (Rejected rejected) {
			throw new RunFileRejected(DOCUMENT_FIELD, rejected.getMessage());
		}
	}

	/** After the upload's commit, the alert's confirmation follows its new rerun. */
	@TransactionalEventListener(phase = TransactionPhase.AFTER_COMMIT)
	void runCommitted(RunStored stored) {
		String alertId = jdbc.sql("select alert_id from alert_confirmation where run_id = ?")
			.param(stored.id().value())
			.query(String.class)
			.optional()
			.orElse(null);
		if (alertId != null) {
			settle(alertId);
		}
	}

	private String uploader(String runId) {
		return jdbc.sql("select uploaded_by from run where id = ?").param(runId).query(String.class).single();
	}

	/**
	 * Compares the reruns of the alert's two builds once each has at least 3, and stores
	 * what they show on the alert; reproduced, the webhooks get an
	 * {@code alert.confirmed} delivery (once). Fewer reruns: nothing changes.
	 * @return the alert's confirmation, if it has one
	 */
	public Optional<Alerts.Confirmation> settle(String alertId) {
		Alerts.Alert alert = alerts.find(alertId).orElseThrow(() -> new Alerts.AlertNotFoundException(alertId));
		List<Linked> linked = linked(jdbc, alertId);
		List<String> good = linked.stream().filter(link -> link.build().equals("good")).map(Linked::run).toList();
		List<String> bad = linked.stream().filter(link -> link.build().equals("alert")).map(Linked::run).toList();
		if (good.size() < AlertControls.MIN_RERUNS || bad.size() < AlertControls.MIN_RERUNS) {
			return Optional.ofNullable(alert.confirmation());
		}
		Alerts.Confirmation confirmation;
		try {
			ComparisonService.Pair pair = new ComparisonService.Pair(good, bad);
			confirmation = confirmation(alert, comparisons.comparison(pair, comparisons.defaults()), pair.path(),
					linked.size());
		}
		catch (RuntimeException ex) {
			log.warn("history: the reruns of alert {} cannot be compared: {}", alertId, ex.getMessage());
			return Optional.ofNullable(alert.confirmation());
		}
		Alerts.Confirmation settled = confirmation;
		// The plan first: reading it brings the series up to date, in a transaction of
		// its own.
		AlertControls.Plan plan = settled.reproduced() ? controls.plan(alertId) : null;
		transaction.executeWithoutResult(status -> {
			alerts.confirm(alertId, settled);
			if (plan != null) {
				Alerts.Alert confirmed = alerts.find(alertId).orElseThrow();
				webhooks.confirmed(confirmed, plan.confirmed(settled));
			}
		});
		return Optional.of(settled);
	}

	/**
	 * What the comparison of the good build's reruns (baseline) with the alert's build's
	 * (contender) shows over the alert's cell × metrics: each reproduced when its 95 %
	 * interval lies wholly on the side of 1 its change went; the alert reproduced when
	 * most of those compared are; the ratio and interval those of its largest change.
	 */
	static Alerts.Confirmation confirmation(Alerts.Alert alert, Comparison comparison, String path, int reruns) {
		Alerts.Change lead = AlertControls.lead(alert);
		int compared = 0;
		int reproduced = 0;
		Double ratio = null;
		Alerts.Interval interval = null;
		for (Alerts.Change change : alert.changes()) {
			ComparedMetric metric = metric(comparison, change.anchor(), change.metric());
			if (metric == null || metric.interval() == null || metric.ratio() == null) {
				continue;
			}
			RatioInterval found = metric.interval();
			compared++;
			boolean up = change.meanAfter() > change.meanBefore();
			if (up ? found.low() > 1 : found.high() < 1) {
				reproduced++;
			}
			if (change == lead) {
				ratio = metric.ratio();
				interval = new Alerts.Interval(found.low(), found.high(), found.confidence(), found.method());
			}
		}
		boolean isReproduced = compared > 0 && reproduced * 2 > compared;
		return new Alerts.Confirmation(reruns, isReproduced, ratio, interval, lead == null ? "" : lead.anchor(),
				lead == null ? "" : lead.metric(), reproduced, compared, isReproduced ? null : "false-positive", path);
	}

	private static @Nullable ComparedMetric metric(Comparison comparison, String anchor, String metric) {
		for (ComparedCell cell : comparison.cells()) {
			if (cell.anchor().equals(anchor)) {
				for (ComparedMetric compared : cell.metrics()) {
					if (compared.metric().equals(metric)) {
						return compared;
					}
				}
			}
		}
		return null;
	}

}
