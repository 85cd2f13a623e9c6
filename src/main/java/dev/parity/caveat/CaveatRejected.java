package dev.parity.caveat;

import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpStatus;
import org.springframework.web.server.ResponseStatusException;

/**
 * A caveat or status change that cannot be recorded, with the reason (and, for a field of
 * a request written wrong, its path, e.g. {@code deciding_plan.changes[1].field}).
 */
public class CaveatRejected extends ResponseStatusException {

	private final @Nullable String path;

	public CaveatRejected(String message) {
		this(message, null);
	}

	public CaveatRejected(String message, @Nullable String path) {
		super(HttpStatus.BAD_REQUEST, message);
		this.path = path;
	}

	/**
	 * The path of the field written wrong, without {@code $.}; {@code null} when the
	 * reason is not one field's.
	 */
	public @Nullable String path() {
		return path;
	}

}
