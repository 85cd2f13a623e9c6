package dev.parity.record;

import org.springframework.http.HttpStatus;
import org.springframework.web.server.ResponseStatusException;

/**
 * No publication has the id that was asked for.
 */
public class PublicationNotFoundException extends ResponseStatusException {

	public PublicationNotFoundException(String id) {
		super(HttpStatus.NOT_FOUND, "No published comparison with id '" + id + "'");
	}

}
