package dev.parity.ingest;

/**
 * Every turn to read and store an upload is taken, and none came within the wait
 * ({@link IngestTurns}): answered 503 with {@code Retry-After}, nothing stored.
 */
public class UploadsBusy extends RuntimeException {

	/** How long a client is asked to wait before uploading again, in seconds. */
	public static final int RETRY_AFTER_SECONDS = 5;

	UploadsBusy(int maxConcurrent) {
		super("the server is storing " + maxConcurrent
				+ " other uploads just now (parity.ingest.max-concurrent); nothing was stored: upload again in a few seconds");
	}

}
