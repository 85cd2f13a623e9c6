package dev.parity.control;

/**
 * A declaration of a control that cannot be stored, naming the field and why; nothing is
 * stored.
 *
 * @see Controls#declare
 */
public class ControlRejected extends RuntimeException {

	private final String field;

	private final boolean unknownRun;

	ControlRejected(String field, String message, boolean unknownRun) {
		super(message);
		this.field = field;
		this.unknownRun = unknownRun;
	}

	/** The request's field the problem is in: {@code control} or {@code of}. */
	public String field() {
		return field;
	}

	/**
	 * Whether the problem is a run that does not exist (a 404), rather than a request
	 * written wrong (a 400).
	 */
	public boolean unknownRun() {
		return unknownRun;
	}

}
