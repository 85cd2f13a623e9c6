package dev.parity.run;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * A fixed number of turns for costly work, given in the order they were asked for: work
 * beyond them waits for one, up to a patience of its own, and is refused after. What
 * bounds the comparisons computed at once and the uploads read at once.
 */
public final class Turns {

	private final int count;

	private final Semaphore turns;

	public Turns(int count) {
		this.count = count;
		this.turns = new Semaphore(count, true);
	}

	/**
	 * Does {@code work} in a turn of its own, or throws what {@code refusal} makes when
	 * none came within {@code patience}.
	 */
	public <T> T inTurn(Duration patience, Supplier<T> work, Supplier<? extends RuntimeException> refusal) {
		if (!take(patience)) {
			throw refusal.get();
		}
		try {
			return work.get();
		}
		finally {
			giveBack();
		}
	}

	/** Takes a turn, waiting up to {@code patience}. */
	public boolean take(Duration patience) {
		try {
			return turns.tryAcquire(patience.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	/** Gives back a turn taken with {@link #take}. */
	public void giveBack() {
		turns.release();
	}

	/** How many turns there are. */
	public int count() {
		return count;
	}

	/** How many wait for a turn now (an estimate, as the semaphore gives it). */
	public int waiting() {
		return turns.getQueueLength();
	}

	/** How many turns are taken now. */
	public int taken() {
		return count - turns.availablePermits();
	}

}
