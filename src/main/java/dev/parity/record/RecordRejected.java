package dev.parity.record;

import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.ResponseStatus;

/**
 * A publication, retraction or supersession that cannot be recorded, with the reason.
 */
@ResponseStatus(HttpStatus.BAD_REQUEST)
public class RecordRejected extends RuntimeException {

	public RecordRejected(String message) {
		super(message);
	}

}
