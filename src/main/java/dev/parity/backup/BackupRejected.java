package dev.parity.backup;

/**
 * An archive that cannot be restored: not a Parity backup, damaged (a file does not match
 * its checksum), from a newer Parity, or inconsistent. Nothing of it is stored.
 */
public class BackupRejected extends RuntimeException {

	private static final long serialVersionUID = 1L;

	public BackupRejected(String message) {
		super(message);
	}

	public BackupRejected(String message, Throwable cause) {
		super(message, cause);
	}

}
