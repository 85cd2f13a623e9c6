package dev.parity.backup;

/**
 * A restore into an instance that already holds a record: a backup is restored into an
 * empty instance only, never merged into another record (ids would collide, and an
 * append-only record cannot be undone).
 */
public class InstanceNotEmpty extends RuntimeException {

	private static final long serialVersionUID = 1L;

	public InstanceNotEmpty(String message) {
		super(message);
	}

}
