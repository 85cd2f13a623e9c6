package dev.parity.caveat;

import org.springframework.http.HttpStatus;
import org.springframework.web.server.ResponseStatusException;

/**
 * No caveat has the id that was asked for.
 */
public class CaveatNotFoundException extends ResponseStatusException {

	public CaveatNotFoundException(String id) {
		super(HttpStatus.NOT_FOUND, "No caveat with id '" + id + "'");
	}

}
