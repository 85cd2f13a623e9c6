package dev.parity.ingest;

/**
 * One thing wrong with an upload: where (a JSON path such as {@code $.cells[3].requests.failed}) and what.
 */
public record Problem(String path, String message) {

	@Override
	public String toString() {
		return path + ": " + message;
	}

}
