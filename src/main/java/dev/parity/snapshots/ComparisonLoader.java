package dev.parity.snapshots;

import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;
import org.springframework.stereotype.Component;

/**
 * The threads that load the second run of a comparison while the request's thread loads
 * the first: four, shut down with the application context; and four more that compute a
 * whole comparison while a request does other work first ({@link #ahead}), apart from the
 * first four, which those comparisons use. Not an {@code Executor} bean itself, so Spring
 * Boot's own task executor stays.
 */
@Component
class ComparisonLoader implements DisposableBean {

	private final ThreadPoolTaskExecutor threads = new ThreadPoolTaskExecutor();

	private final ThreadPoolTaskExecutor ahead = new ThreadPoolTaskExecutor();

	ComparisonLoader() {
		ahead.setCorePoolSize(4);
		ahead.setMaxPoolSize(4);
		ahead.setQueueCapacity(16);
		ahead.setThreadNamePrefix("comparison-ahead-");
		ahead.setDaemon(true);
		ahead.initialize();
		threads.setCorePoolSize(4);
		threads.setMaxPoolSize(4);
		threads.setThreadNamePrefix("comparison-loader-");
		threads.setDaemon(true);
		threads.initialize();
	}

	/** What the supplier gives, computed on one of the loader's threads. */
	<T> CompletableFuture<T> supply(Supplier<T> supplier) {
		return CompletableFuture.supplyAsync(supplier, threads);
	}

	/**
	 * What the supplier gives, computed on a thread apart from the loading ones.
	 * @throws java.util.concurrent.RejectedExecutionException when 20 are being computed
	 * or waiting already
	 */
	<T> CompletableFuture<T> ahead(Supplier<T> supplier) {
		return CompletableFuture.supplyAsync(supplier, ahead);
	}

	@Override
	public void destroy() {
		ahead.shutdown();
		threads.shutdown();
	}

}
