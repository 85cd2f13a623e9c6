package dev.parity.run;

import org.springframework.http.HttpStatus;
import org.springframework.web.server.ResponseStatusException;

/**
 * No run has the id that was asked for.
 */
public class RunNotFoundException extends ResponseStatusException {

	public RunNotFoundException(String id) {
		super(HttpStatus.NOT_FOUND, "No run with id '" + id + "'");
	}

}
