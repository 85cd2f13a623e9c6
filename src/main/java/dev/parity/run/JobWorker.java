package dev.parity.run;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One background thread that drains a table of jobs (claimed
 * {@code FOR UPDATE SKIP LOCKED} by whoever drains it, on any instance): woken after a
 * commit that adds jobs and by a poll, never twice at once, and no failure leaves it —
 * the database away, say, leaves the jobs for the next wake. Made by {@link JobThreads},
 * which owns its thread.
 */
public final class JobWorker {

	private static final Logger log = LoggerFactory.getLogger(JobWorker.class);

	private final String name;

	private final Runnable drain;

	private final ExecutorService thread;

	private final AtomicBoolean draining = new AtomicBoolean();

	/**
	 * @param name the thread's name, and what the log says stopped
	 * @param drain does every due job, until none is left
	 * @param thread the one thread it drains on, which {@link JobThreads} shuts down with
	 * the application
	 */
	JobWorker(String name, Runnable drain, ExecutorService thread) {
		this.name = name;
		this.drain = drain;
		this.thread = thread;
	}

	/** Starts draining unless the worker is at it already. */
	public void wake() {
		if (!draining.compareAndSet(false, true)) {
			return;
		}
		try {
			thread.execute(() -> {
				try {
					drain.run();
				}
				catch (RuntimeException ex) {
					log.warn("{}: stopped for now: {}", name, ex.toString());
				}
				finally {
					draining.set(false);
				}
			});
		}
		catch (RejectedExecutionException ex) {
			draining.set(false); // shutting down
		}
	}

	/** Whether the worker is draining now. */
	public boolean busy() {
		return draining.get();
	}

}
