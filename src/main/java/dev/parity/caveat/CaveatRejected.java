package dev.parity.caveat;

import org.springframework.http.HttpStatus;
import org.springframework.web.server.ResponseStatusException;

/**
 * A caveat or status change that cannot be recorded, with the reason.
 */
public class CaveatRejected extends ResponseStatusException {

	public CaveatRejected(String message) {
		super(HttpStatus.BAD_REQUEST, message);
	}

}
