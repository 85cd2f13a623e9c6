package dev.parity.compare;

import com.fasterxml.jackson.annotation.JsonInclude;
import org.jspecify.annotations.Nullable;

/**
 * One change a control run makes to the side it reruns, removing a rule's flag: a field
 * of the run document, its value on that side now ({@code from}) and the value it must
 * have ({@code to}), both taken from the two runs' provenance or measurements,
 * {@code null} where a side has none.
 *
 * @param rule the rule whose flag the change removes
 * @param field a path of the run document, e.g. {@code model.commit} or
 * {@code engine.flags.kv-cache-dtype}; a measured field is under {@code cells[]} (e.g.
 * {@code cells[].output_tokens})
 * @param from the rerun side's value now
 * @param to the value the control must have
 * @param how what to do, for people
 * @param check what to check before measuring, and what Parity checks of the control;
 * {@code null} when the field is a setting Parity can only read
 */
public record ControlChange(String rule, String field, @Nullable Object from, @Nullable Object to, String how,
		@JsonInclude(JsonInclude.Include.NON_NULL) @Nullable ControlCheck check) {
}
