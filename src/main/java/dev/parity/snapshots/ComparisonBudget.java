package dev.parity.snapshots;

import java.time.Duration;
import java.util.function.Supplier;

import dev.parity.run.Turns;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.stereotype.Component;

/**
 * How many comparisons are computed at once. Computing one holds both runs, every sample
 * included, and the result in memory, so eight uncached comparisons of two 10,000-cell
 * runs at once can exhaust the heap; beyond {@code parity.compare.max-concurrent} a
 * request waits up to {@code parity.compare.max-wait} for its turn (a CI verdict up to
 * {@code parity.compare.patient-wait}, {@link #patiently}) and is then answered 503 with
 * {@code Retry-After} ({@link ComparisonsBusy}). Kept comparisons are served without a
 * turn.
 */
@Component
public class ComparisonBudget {

	/**
	 * The budget's settings.
	 *
	 * @param maxConcurrent how many comparisons may be computed at once (default 2)
	 * @param maxWait how long a request waits for its turn before the 503 (default 2 s)
	 * @param patientWait how long a request that would rather wait than be refused (a CI
	 * verdict: its job waits for the answer) waits for its turn before the 503 (default
	 * 30 s)
	 */
	@ConfigurationProperties("parity.compare")
	public record Limits(int maxConcurrent, @Nullable Duration maxWait, @Nullable Duration patientWait) {
	}

	private final int maxConcurrent;

	private final Duration maxWait;

	private final Duration patientWait;

	/** Whether the comparisons of this thread's request wait the patient wait. */
	private final ThreadLocal<Boolean> patient = ThreadLocal.withInitial(() -> false);

	private final Turns turns;

	ComparisonBudget(Limits limits) {
		this.maxConcurrent = limits.maxConcurrent() > 0 ? limits.maxConcurrent() : 2;
		this.maxWait = limits.maxWait() != null ? limits.maxWait() : Duration.ofSeconds(2);
		this.patientWait = limits.patientWait() != null ? limits.patientWait() : Duration.ofSeconds(30);
		this.turns = new Turns(maxConcurrent);
	}

	/**
	 * Computes in a turn of its own, or throws {@link ComparisonsBusy} when none came
	 * within the wait.
	 */
	<T> T compute(Supplier<T> computation) {
		return turns.inTurn(patient.get() ? patientWait : maxWait, computation,
				() -> new ComparisonsBusy(maxConcurrent));
	}

	/**
	 * Does {@code work}, every comparison it computes waiting up to
	 * {@code parity.compare.patient-wait} for its turn instead of
	 * {@code parity.compare.max-wait}: for a request whose client would rather wait than
	 * be refused (a CI verdict, asked by a job that waits for it). The turns are as many:
	 * only the wait is longer.
	 */
	public <T> T patiently(Supplier<T> work) {
		boolean was = patient.get();
		patient.set(true);
		try {
			return work.get();
		}
		finally {
			patient.set(was);
		}
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
		return maxConcurrent;
	}

	/** Requests waiting for a turn now (an estimate, as the semaphore gives it). */
	int waiting() {
		return turns.waiting();
	}

	/** Turns taken now: comparisons being computed. */
	int computing() {
		return turns.taken();
	}

}
