package dev.parity.ingest.web;

import java.util.List;
import java.util.Optional;

import dev.parity.ingest.harness.InputFile;

/**
 * Files uploaded for a preview, held (never as a run) until the uploader stores the run
 * or leaves: so that correcting the provenance does not mean uploading the files again.
 * Held in bounded space and for a bounded time; the oldest go first.
 */
interface PendingUploads {

	/**
	 * Holds the files for their owner.
	 * @return the token that gives them back
	 * @throws TooLarge when the files alone are more than the space previews may take
	 */
	String hold(String owner, List<InputFile> files);

	/** The files held under the token, when they are still held and are the owner's. */
	Optional<List<InputFile>> files(String owner, String token);

	void release(String token);

	/** A preview larger than all the space previews may take together. */
	final class TooLarge extends RuntimeException {

		private static final long serialVersionUID = 1L;

		TooLarge(String message) {
			super(message);
		}

	}

}
