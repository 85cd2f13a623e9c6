package dev.parity.snapshots;

import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;
import org.springframework.stereotype.Component;

/**
 * The threads that load the second run of a comparison while the request's thread loads
 * the first: four, shut down with the application context. Not an {@code Executor} bean
 * itself, so Spring Boot's own task executor stays.
 */
@Component
class ComparisonLoader implements DisposableBean {

	private final ThreadPoolTaskExecutor threads = new ThreadPoolTaskExecutor();

	ComparisonLoader() {
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

	@Override
	public void destroy() {
		threads.shutdown();
	}

}
