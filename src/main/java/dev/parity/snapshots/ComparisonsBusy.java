package dev.parity.snapshots;

/**
 * Every turn to compute a comparison is taken ({@link ComparisonBudget}): answered 503
 * with {@code Retry-After}, a page for a browser and the usual {@code errors} body for
 * the API.
 */
public class ComparisonsBusy extends RuntimeException {

	/** How long a client is asked to wait before asking again, in seconds. */
	public static final int RETRY_AFTER_SECONDS = 5;

	ComparisonsBusy(int maxConcurrent) {
		super("the server is computing " + maxConcurrent
				+ " other comparisons just now (parity.compare.max-concurrent);" + " try again in a few seconds");
	}

}
