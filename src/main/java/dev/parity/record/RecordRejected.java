package dev.parity.record;

import org.springframework.http.HttpStatus;
import org.springframework.web.server.ResponseStatusException;

/**
 * A publication, retraction or supersession that cannot be recorded, with the reason.
 */
public class RecordRejected extends ResponseStatusException {

	public RecordRejected(String message) {
		super(HttpStatus.BAD_REQUEST, message);
	}

}
