package dev.parity.run;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import jakarta.annotation.PreDestroy;

import org.springframework.stereotype.Component;

/**
 * The background threads of the application's job tables (the series updates, the
 * bootstrap medians): one thread per {@link JobWorker}, made here and shut down with the
 * application context — a job in hand is interrupted and stays in its table for the next
 * start (its transaction rolls back), so a context closed by a test or a restart leaves
 * no thread behind.
 */
@Component
public class JobThreads {

	private final List<ExecutorService> threads = new CopyOnWriteArrayList<>();

	/**
	 * A worker that drains on a thread of its own, named {@code name}.
	 * @param name the thread's name, and what the log says stopped
	 * @param drain does every due job, until none is left
	 */
	public JobWorker worker(String name, Runnable drain) {
		ExecutorService thread = Executors.newSingleThreadExecutor(runnable -> {
			Thread worker = new Thread(runnable, name);
			worker.setDaemon(true);
			return worker;
		});
		threads.add(thread);
		return new JobWorker(name, drain, thread);
	}

	@PreDestroy
	void stop() throws InterruptedException {
		threads.forEach(ExecutorService::shutdownNow);
		for (ExecutorService thread : threads) {
			thread.awaitTermination(5, TimeUnit.SECONDS);
		}
	}

}
