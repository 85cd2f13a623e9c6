package dev.parity.caveat;

import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.ResponseStatus;

/**
 * No caveat has the id that was asked for.
 */
@ResponseStatus(HttpStatus.NOT_FOUND)
public class CaveatNotFoundException extends RuntimeException {

	public CaveatNotFoundException(String id) {
		super("No caveat with id '" + id + "'");
	}

}
