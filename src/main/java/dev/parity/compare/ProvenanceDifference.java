package dev.parity.compare;

import org.jspecify.annotations.Nullable;

/**
 * One row of a comparison's provenance diff: a field of both runs' provenance, whether it
 * is the same, differs or is unknown (a value on one side only, or on neither), and the
 * rule it triggers.
 *
 * @param field the field's path in the run document, e.g. {@code workload.dataset} or
 * {@code engine.flags.kv-cache-dtype}
 * @param baseline the baseline's value as written; {@code null} when absent
 * @param contender the contender's value as written; {@code null} when absent
 * @param status {@code same}, {@code differs} or {@code unknown}
 * @param rule the id of the rule this row triggers; {@code null} when none
 */
public record ProvenanceDifference(String field, @Nullable String baseline, @Nullable String contender, String status,
		@Nullable String rule) {

	public static final String SAME = "same";

	public static final String DIFFERS = "differs";

	public static final String UNKNOWN = "unknown";

	/** {@code workload.dataset random vs sharegpt}, for messages. */
	String sideBySide() {
		return field + " " + baseline + " vs " + contender;
	}

}
