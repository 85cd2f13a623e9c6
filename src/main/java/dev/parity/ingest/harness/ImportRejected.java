package dev.parity.ingest.harness;

/**
 * A harness file that cannot be imported as it is; the message names the file and the
 * problem, with the JSON path or line where known (e.g.
 * {@code run=0.json: not valid JSON: unexpected end
 * of input at line 40, column 1}).
 */
public class ImportRejected extends RuntimeException {

	private static final long serialVersionUID = 1L;

	public ImportRejected(String message) {
		super(message);
	}

	public ImportRejected(String message, Throwable cause) {
		super(message, cause);
	}

}
