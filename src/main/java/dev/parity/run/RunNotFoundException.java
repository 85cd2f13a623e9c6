package dev.parity.run;

import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.ResponseStatus;

/**
 * No run has the id that was asked for.
 */
@ResponseStatus(HttpStatus.NOT_FOUND)
public class RunNotFoundException extends RuntimeException {

	public RunNotFoundException(String id) {
		super("No run with id '" + id + "'");
	}

}
