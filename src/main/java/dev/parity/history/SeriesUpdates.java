package dev.parity.history;

import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.LoadingCache;
import dev.parity.run.Role;
import dev.parity.run.Run;
import dev.parity.run.RunId;
import dev.parity.run.RunRepository;
import dev.parity.run.JobThreads;
import dev.parity.run.JobWorker;
import dev.parity.run.RunStored;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.Timer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.event.EventListener;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Service;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.event.TransactionPhase;
import org.springframework.transaction.event.TransactionalEventListener;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Keeps series up to date as runs arrive, incrementally and apart from the upload:
 * <ul>
 * <li>in the upload's transaction, a new measured run joins the series of its key and a
 * job asks for that series' update (so that no update is lost, and the run is in its
 * series the moment it is stored);</li>
 * <li>after the commit, a worker of this instance — or of any other on the same database:
 * jobs are claimed {@code FOR UPDATE SKIP LOCKED}, so each is done once — updates that
 * series, and no other;</li>
 * <li>an update computes the facts of the runs it has not seen (one, for a new run) and
 * the comparison checks of the pairs whose baseline changed (one, for a run appended; two
 * for a run inserted out of order), and keeps both; then the segments, points and change
 * points follow from those facts, without reloading any document;</li>
 * <li>when the runs are those of the analysis kept here with runs appended at the end
 * (the same retractions and settings), the update goes on from where that analysis ended
 * — its pass over the points, the change points of the segments no new point joins,
 * E-Divisive's split of the one they join — and ends in the same analysis; any other
 * change (a run inserted before the end, a retraction, new settings, a restart) analyses
 * the series from the start;</li>
 * <li>a read of a series (page, API, verdict) first does what is waiting for it, so it
 * never shows a series without its newest run.</li>
 * </ul>
 * The analysis is a function of the series' runs in series order, so runs uploaded out of
 * order give the same result. This class is the job loop; {@link SeriesAnalyses} computes
 * and keeps the analyses, {@link SeriesFacts} the runs' facts and pairs.
 */
@Service
public class SeriesUpdates {

	private static final Logger log = LoggerFactory.getLogger(SeriesUpdates.class);

	/**
	 * How long a series update takes, from the claim of its jobs to the commit of its
	 * analysis.
	 */
	private static final Timer UPDATE_TIME = Timer.builder("parity.series.update")
		.description("Series updates: claim of the series' jobs to the commit of its new analysis")
		.register(Metrics.globalRegistry);

	private final RunRepository runs;

	private final SeriesRepository series;

	private final HistorySettings settings;

	private final TransactionTemplate transaction;

	private final SeriesAnalyses analyses;

	private final JobWorker worker;

	/**
	 * The lock of each series being caught up by a reader of this instance (kept while a
	 * reader holds or waits for it).
	 */
	private final LoadingCache<String, ReentrantLock> catchUps = Caffeine.newBuilder()
		.weakValues()
		.build(seriesId -> new ReentrantLock());

	SeriesUpdates(RunRepository runs, SeriesRepository series, HistorySettings settings, SeriesAnalyses analyses,
			PlatformTransactionManager transactions, JobThreads threads) {
		this.worker = threads.worker("series-updates", this::drain);
		this.runs = runs;
		this.series = series;
		this.settings = settings;
		this.analyses = analyses;
		this.transaction = new TransactionTemplate(transactions);
		this.transaction.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
	}

	/**
	 * In the upload's transaction: the run joins its series, and the series' update is
	 * asked for. A confirmation rerun ({@code context.confirms}) is not a point of its
	 * series and joins none.
	 */
	@EventListener
	void runStored(RunStored stored) {
		if (stored.role() != Role.MEASURED || series.isRerun(stored.id().value())) {
			return;
		}
		SeriesKey key = SeriesKey.of(stored.provenance(), settings.defaultBranch());
		series.join(key, stored.id().value());
		series.enqueue(key.id(), stored.id().value(), "run-joined");
	}

	/**
	 * After the upload's commit: the worker starts on the waiting updates; the uploader
	 * does not wait for it.
	 */
	@TransactionalEventListener(phase = TransactionPhase.AFTER_COMMIT)
	void runCommitted(RunStored stored) {
		wake();
	}

	/**
	 * Every few seconds: updates left by a failure, a restart or another instance that
	 * stopped.
	 */
	@Scheduled(fixedDelayString = "${parity.history.poll:PT10S}", initialDelayString = "${parity.history.poll:PT10S}")
	void poll() {
		wake();
	}

	private void wake() {
		worker.wake();
	}

	/**
	 * Does every due update, series by series, until none is left; returns how many
	 * series it updated.
	 */
	public int drain() {
		int updated = 0;
		while (doNext(null)) {
			updated++;
		}
		return updated;
	}

	/**
	 * Claims the waiting jobs of one series (of {@code seriesId}, or the oldest) and
	 * updates it in one transaction; false when nothing was claimable.
	 */
	private boolean doNext(@Nullable String seriesId) {
		SeriesRepository.Job[] claimed = new SeriesRepository.Job[1];
		try {
			long started = System.nanoTime();
			boolean done = Boolean.TRUE.equals(transaction.execute(status -> {
				Optional<SeriesRepository.Job> job = series.claim(seriesId);
				if (job.isEmpty()) {
					return false;
				}
				claimed[0] = job.get();
				analyses.reanalyse(job.get().seriesId());
				series.done(job.get());
				return true;
			}));
			if (done) {
				UPDATE_TIME.record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
			}
			return done;
		}
		catch (RuntimeException ex) {
			if (claimed[0] == null) {
				throw ex;
			}
			log.error("history: cannot update series {} (attempt {})", claimed[0].seriesId(), claimed[0].attempts() + 1,
					ex);
			transaction.executeWithoutResult(status -> series.failed(claimed[0], String.valueOf(ex)));
			return seriesId == null; // a worker goes on with other series; a reader stops
										// here
		}
	}

	/**
	 * Does what was waiting for this series when it was asked, before it is read (what
	 * comes meanwhile is left to the readers after it: under a burst of uploads a reader
	 * no longer waits for the runs uploaded after its own); jobs a worker (here or on
	 * another instance) is doing are waited for, and so is another reader's catch-up of
	 * the series here. The caller holds no connection: a reader that waits must not hold
	 * one of the pool's.
	 */
	void catchUp(String seriesId) {
		// What this reader needs done: the jobs committed before it asked (the newest of
		// them, and any older). Jobs that come while it waits are for later readers.
		Long upTo = series.lastPending(seriesId);
		if (upTo == null) {
			return;
		}
		// One catch-up of a series at a time here: the others wait for it without a
		// connection, then find its jobs done (theirs among them, as they were committed
		// before), so a burst of readers of one series updates it once or twice, not once
		// each, and never holds the pool waiting for the series' lock.
		ReentrantLock turn = catchUps.get(seriesId);
		turn.lock();
		try {
			for (int attempt = 0; attempt < 3 && series.pendingUpTo(seriesId, upTo) && doNext(seriesId); attempt++) {
				// one transaction per claim; a job that fails is left to the worker's
				// back-off
			}
		}
		catch (RuntimeException ex) {
			log.error("history: cannot bring series {} up to date before reading it", seriesId, ex);
		}
		finally {
			turn.unlock();
		}
	}

	/**
	 * Does what is waiting for every series (a list or the alerts are about to be read).
	 */
	public void catchUp() {
		series.pending().forEach(this::catchUp);
	}

	/**
	 * Puts a stored run in its series (a measured run only) and brings that series up to
	 * date now; returns the series id. For runs that joined no series when they were
	 * stored (restored ones) and for tools.
	 */
	public Optional<String> update(RunId id) {
		Optional<String> seriesId = transaction.execute(status -> {
			Run run = runs.header(id).orElse(null);
			if (run == null || run.role() != Role.MEASURED || series.isRerun(id.value())) {
				return Optional.<String>empty();
			}
			SeriesKey key = SeriesKey.of(run.provenance(), settings.defaultBranch());
			series.join(key, id.value());
			series.enqueue(key.id(), id.value(), "update");
			return Optional.of(key.id());
		});
		seriesId.ifPresent(this::catchUp);
		return seriesId;
	}

	/**
	 * The analysis of a series, brought up to date first: the one kept in memory while it
	 * is the one stored, else the stored one with its points rebuilt from the runs'
	 * facts.
	 */
	public Optional<SeriesAnalysis> analysis(String seriesId) {
		catchUp(seriesId);
		Optional<SeriesRepository.AnalysisState> state = series.analysisState(seriesId);
		// A series restored from a backup has no analysis (it is computed again, not
		// kept); one of whose runs was
		// retracted since has a stale one.
		if (state.isEmpty() ? series.key(seriesId).isPresent() : state.get().retractedSince()) {
			String reason = state.isEmpty() ? "no-analysis" : "retraction";
			transaction.executeWithoutResult(status -> series.enqueue(seriesId, null, reason));
			catchUp(seriesId);
			state = series.analysisState(seriesId);
		}
		if (state.isEmpty()) {
			return Optional.empty();
		}
		return analyses.current(seriesId, state.get().version());
	}

}
