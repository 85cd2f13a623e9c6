package dev.parity.run;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.Timer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Service;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Computes each stored run's bootstrap medians ({@link CellBootstraps}) after its upload,
 * apart from it:
 * <ul>
 * <li>the upload's transaction (or a restore's) writes a job for the run
 * ({@link #enqueue}), so that none is lost;</li>
 * <li>after its commit, a worker of this instance — or of any other on the same database:
 * jobs are claimed {@code FOR UPDATE SKIP LOCKED}, so each run is computed once — reads
 * the run's samples, stores its medians and deletes the job, in one transaction; a poll
 * takes up what a failure, a restart or another instance left;</li>
 * <li>until then a comparison computes the same medians from the samples (a run without
 * all its medians stored is read whole:
 * {@link RunRepository#findAll(java.util.Collection, String)}), so what it shows does not
 * change.</li>
 * </ul>
 * A job that fails waits 2^attempts seconds (up to an hour) before its next attempt; no
 * failure leaves the worker.
 */
@Service
public class BootstrapJobs {

	private static final Logger log = LoggerFactory.getLogger(BootstrapJobs.class);

	/**
	 * How long a run's medians take, from the claim of its job to the commit of its
	 * medians.
	 */
	private static final Timer JOB_TIME = Timer.builder("parity.bootstrap.job")
		.description("Bootstrap medians of a stored run: claim of its job to the commit of its medians")
		.register(Metrics.globalRegistry);

	private final JdbcClient jdbc;

	private final RunRepository runs;

	private final CellBootstraps bootstraps;

	private final TransactionTemplate transaction;

	private final JobWorker worker;

	BootstrapJobs(JdbcClient jdbc, RunRepository runs, CellBootstraps bootstraps,
			PlatformTransactionManager transactions, JobThreads threads) {
		this.worker = threads.worker("bootstrap-medians", this::drain);
		this.jdbc = jdbc;
		this.runs = runs;
		this.bootstraps = bootstraps;
		this.transaction = new TransactionTemplate(transactions);
		this.transaction.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
	}

	/**
	 * Asks for the run's bootstrap medians, in the caller's transaction (the upload's,
	 * the restore's); the worker starts on them after its commit.
	 */
	@Transactional(propagation = Propagation.MANDATORY)
	public void enqueue(RunId run) {
		jdbc.sql("insert into bootstrap_job (run_id) values (?) on conflict (run_id) do nothing")
			.param(run.value())
			.update();
		if (TransactionSynchronizationManager.isSynchronizationActive()) {
			TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
				@Override
				public void afterCommit() {
					wake();
				}
			});
		}
	}

	/**
	 * Every few seconds: jobs left by a failure, a restart or another instance that
	 * stopped.
	 */
	@Scheduled(fixedDelayString = "${parity.bootstraps.poll:PT10S}",
			initialDelayString = "${parity.bootstraps.poll:PT10S}")
	void poll() {
		wake();
	}

	private void wake() {
		worker.wake();
	}

	/**
	 * Does every due job, one run at a time, until none is left; returns how many.
	 */
	public int drain() {
		int done = 0;
		while (doNext()) {
			done++;
		}
		return done;
	}

	/** Whether the run's medians are still to be computed. */
	public boolean pending(RunId run) {
		return Boolean.TRUE.equals(jdbc.sql("select exists (select 1 from bootstrap_job where run_id = ?)")
			.param(run.value())
			.query(Boolean.class)
			.single());
	}

	/** Runs whose medians are still to be computed, by any instance. */
	public long waiting() {
		return jdbc.sql("select count(*) from bootstrap_job").query(Long.class).single();
	}

	/**
	 * Does the run's job now if it is waiting, or waits for the worker (of any instance)
	 * that is doing it; for what must see a run with its medians stored (tests, the
	 * benchmark, tools).
	 */
	public void complete(RunId run) {
		doNext(run.value());
	}

	/**
	 * Claims the oldest due job and does it in one transaction; false when none was
	 * claimable.
	 */
	private boolean doNext() {
		return doNext(null);
	}

	/**
	 * Claims a job — the oldest due one, passing over those another transaction holds, or
	 * the run's, waiting for a transaction that holds it — and does it in one
	 * transaction; false when none was claimed.
	 */
	private boolean doNext(@Nullable String runId) {
		String[] claimed = new String[1];
		try {
			long started = System.nanoTime();
			boolean done = Boolean.TRUE.equals(transaction.execute(status -> {
				Optional<String> job = runId == null ? jdbc.sql("""
						select run_id from bootstrap_job where not_before <= now()
						order by enqueued_at, run_id limit 1 for update skip locked""").query(String.class).optional()
						: jdbc.sql("select run_id from bootstrap_job where run_id = ? for update")
							.param(runId)
							.query(String.class)
							.optional();
				if (job.isEmpty()) {
					return false;
				}
				claimed[0] = job.get();
				compute(new RunId(job.get()));
				jdbc.sql("delete from bootstrap_job where run_id = ?").param(job.get()).update();
				return true;
			}));
			if (done) {
				JOB_TIME.record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
			}
			return done;
		}
		catch (RuntimeException ex) {
			if (claimed[0] == null) {
				throw ex;
			}
			log.error("bootstrap medians: cannot compute those of run {}", claimed[0], ex);
			String error = String.valueOf(ex);
			transaction.executeWithoutResult(status -> jdbc.sql("""
					update bootstrap_job set attempts = attempts + 1, last_error = ?,
					       not_before = now() + least(interval '1 hour', interval '1 second' * power(2, attempts + 1))
					where run_id = ?""")
				.params(error.length() > 2000 ? error.substring(0, 2000) : error, claimed[0])
				.update());
			return runId == null; // a worker goes on with other runs; this one waits for
									// its back-off
		}
	}

	/**
	 * The run's medians from its samples, stored unless some already are (a job written
	 * twice).
	 */
	private void compute(RunId id) {
		boolean stored = Boolean.TRUE.equals(jdbc.sql("select exists (select 1 from cell_bootstrap where run_id = ?)")
			.param(id.value())
			.query(Boolean.class)
			.single());
		if (stored) {
			return;
		}
		List<Cell> cells = runs.find(id).map(Run::cells).orElse(List.of());
		bootstraps.store(id, cells);
	}

}
