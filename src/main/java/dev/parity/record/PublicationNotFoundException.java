package dev.parity.record;

import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.ResponseStatus;

/**
 * No publication has the id that was asked for.
 */
@ResponseStatus(HttpStatus.NOT_FOUND)
public class PublicationNotFoundException extends RuntimeException {

	public PublicationNotFoundException(String id) {
		super("No published comparison with id '" + id + "'");
	}

}
