package dev.parity.system;

import dev.parity.ingest.RunFileRejected;
import dev.parity.ingest.UploadTooLarge;
import dev.parity.web.ApiProblems;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * Turns a rejected upload into a 400 whose problem details list every problem with its
 * JSON path (413 for one that would not fit). The errors Spring MVC raises itself are
 * answered by the shared advice of {@code dev.parity.web}.
 */
@RestControllerAdvice
class ErrorHandlingAdvice {

	@ExceptionHandler(RunFileRejected.class)
	ResponseEntity<ProblemDetail> rejectUpload(RunFileRejected rejected) {
		return ApiProblems.of(HttpStatus.BAD_REQUEST, rejected.problems());
	}

	/**
	 * An upload that would not fit in what the server reads per upload: 413, the limit
	 * named.
	 */
	@ExceptionHandler(UploadTooLarge.class)
	ResponseEntity<ProblemDetail> rejectTooLarge(UploadTooLarge rejected) {
		return ApiProblems.of(HttpStatus.CONTENT_TOO_LARGE, rejected.problems());
	}

}
