package dev.parity.ingest;

/**
 * An upload that would not fit in what the server reads per upload: answered 413, the
 * limit named with its setting. Nothing of it is stored.
 */
public class UploadTooLarge extends RunFileRejected {

	public UploadTooLarge(String path, String message) {
		super(path, message);
	}

}
