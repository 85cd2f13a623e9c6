package dev.parity.web;

/**
 * One thing wrong with a request: where (a JSON path such as
 * {@code $.cells[3].requests.failed}, a form field, or {@code $} for the request as a
 * whole) and what. The API lists them in the {@code errors} member of its problem details
 * ({@link ApiProblems}).
 */
public record Problem(String path, String message) {

	@Override
	public String toString() {
		return path + ": " + message;
	}

}
