package dev.parity.ingest;

import java.time.Duration;
import java.util.function.Supplier;

import dev.parity.run.Turns;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.stereotype.Component;

/**
 * How many uploads are read and stored at once, in the order they came. Reading an upload
 * is work for the processor (parse, schema, statistics, the laws of its medians) and
 * holds the document in memory; sixteen CI jobs uploading at once on a two-core server
 * would otherwise share the processors and all finish at the end, each as late as the
 * last, and their verdicts after them. In turns, each upload is stored as soon as its own
 * work is done and the verdicts start one after the other. The turns leave one processor
 * to what follows the uploads already stored — their series' updates, median laws and
 * verdicts — so that a run's verdict is not queued behind the uploads that came after it.
 * Beyond {@code parity.ingest.max-concurrent} (by default the processors less one, at
 * least 1) an upload waits for its turn, without a database connection, up to
 * {@code parity.ingest.max-wait} (30 s) and is then answered 503 with {@code Retry-After}
 * ({@link UploadsBusy}), nothing stored.
 */
@Component
public class IngestTurns {

	/**
	 * The turns' settings.
	 *
	 * @param maxConcurrent how many uploads are read and stored at once (default: the
	 * processors less one, at least 1)
	 * @param maxWait how long an upload waits for its turn before the 503 (default 30 s)
	 */
	@ConfigurationProperties("parity.ingest")
	public record Limits(int maxConcurrent, @Nullable Duration maxWait) {
	}

	private final Duration maxWait;

	private final Turns turns;

	IngestTurns(Limits limits, MeterRegistry registry) {
		this.turns = new Turns(limits.maxConcurrent() > 0 ? limits.maxConcurrent()
				: byDefault(Runtime.getRuntime().availableProcessors()));
		this.maxWait = limits.maxWait() != null ? limits.maxWait() : Duration.ofSeconds(30);
		Gauge.builder("parity.ingest.waiting", this, IngestTurns::waiting)
			.description("Uploads waiting now for a turn to be read and stored (parity.ingest.max-concurrent)")
			.register(registry);
	}

	/**
	 * The turns on a server with these processors: all but one, which is left to what
	 * follows the uploads stored (on two cores, two turns made the slowest of a CI
	 * burst's verdicts wait 1.1–1.9 s, one turn 0.8–1.0 s: the performance page's burst).
	 */
	static int byDefault(int processors) {
		return Math.max(1, processors - 1);
	}

	/**
	 * Does {@code work} (reading and storing an upload) in a turn of its own, or throws
	 * {@link UploadsBusy} when none came within {@code parity.ingest.max-wait}. The
	 * caller holds no connection: a transaction starts inside the turn.
	 */
	public <T> T inTurn(Supplier<T> work) {
		return turns.inTurn(maxWait, work, () -> new UploadsBusy(turns.count()));
	}

	/**
	 * Takes a turn, waiting up to {@code patience} (the tests hold every turn with this).
	 */
	public boolean take(Duration patience) {
		return turns.take(patience);
	}

	/** Gives back a turn taken with {@link #take}. */
	public void giveBack() {
		turns.giveBack();
	}

	public int maxConcurrent() {
		return turns.count();
	}

	/** How many uploads wait for a turn just now (an estimate, for the metrics). */
	public int waiting() {
		return turns.waiting();
	}

}
