package dev.parity.ingest.harness;

/**
 * An upload that would not fit in what the server reads per upload ({@link JsonLimits});
 * the message names the file and the limit with its setting. Nothing of it is stored.
 */
public class ImportTooLarge extends ImportRejected {

	private static final long serialVersionUID = 1L;

	public ImportTooLarge(String message) {
		super(message);
	}

}
