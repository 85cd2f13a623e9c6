package dev.parity.system;

import java.util.List;
import java.util.Map;

import dev.parity.ingest.Problem;
import dev.parity.ingest.RunFileRejected;
import dev.parity.ingest.UploadTooLarge;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.multipart.MaxUploadSizeExceededException;
import org.springframework.web.multipart.MultipartException;

/**
 * Turns a rejected upload into a 400 that lists every problem with its JSON path (413 for one that would not fit).
 */
@RestControllerAdvice
class ErrorHandlingAdvice {

	@ExceptionHandler(RunFileRejected.class)
	ResponseEntity<Map<String, List<Problem>>> rejectUpload(RunFileRejected rejected) {
		return ResponseEntity.badRequest().body(Map.of("errors", rejected.problems()));
	}

	/** An upload that would not fit in what the server reads per upload: 413, the limit named. */
	@ExceptionHandler(UploadTooLarge.class)
	ResponseEntity<Map<String, List<Problem>>> rejectTooLarge(UploadTooLarge rejected) {
		return ResponseEntity.status(HttpStatus.CONTENT_TOO_LARGE).body(Map.of("errors", rejected.problems()));
	}

	@ExceptionHandler(HttpMessageNotReadableException.class)
	ResponseEntity<Map<String, List<Problem>>> rejectUnreadable(HttpMessageNotReadableException ex) {
		return ResponseEntity.badRequest()
			.body(Map.of("errors", List.of(new Problem("$", "the request body could not be read: " + ex.getMostSpecificCause().getMessage()))));
	}

	/** A multipart body that cannot be parsed (cut short, a part that claims to be multipart itself): the client's. */
	@ExceptionHandler(MultipartException.class)
	ResponseEntity<Map<String, List<Problem>>> rejectMultipart(MultipartException ex) {
		if (ex instanceof MaxUploadSizeExceededException) {
			return ResponseEntity.status(HttpStatus.CONTENT_TOO_LARGE)
				.body(Map.of("errors", List.of(new Problem("$", "a part is larger than the server accepts"))));
		}
		Throwable cause = ex.getMostSpecificCause();
		return ResponseEntity.badRequest().body(Map.of("errors", List.of(new Problem("$",
				"the multipart body could not be read: " + (cause.getMessage() == null ? cause.getClass().getSimpleName()
						: cause.getMessage())))));
	}

	@ExceptionHandler(HttpMediaTypeNotSupportedException.class)
	ResponseEntity<Map<String, List<Problem>>> rejectMediaType(HttpMediaTypeNotSupportedException ex) {
		return ResponseEntity.status(HttpStatus.UNSUPPORTED_MEDIA_TYPE)
			.body(Map.of("errors", List.of(new Problem("$", "send the run document as application/json; got " + ex.getContentType()))));
	}

}
