package dev.parity.caveat;

import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.ResponseStatus;

/**
 * A caveat or status change that cannot be recorded, with the reason.
 */
@ResponseStatus(HttpStatus.BAD_REQUEST)
public class CaveatRejected extends RuntimeException {

	public CaveatRejected(String message) {
		super(message);
	}

}
