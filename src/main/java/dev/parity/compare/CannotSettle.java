package dev.parity.compare;

/**
 * A difference no rerun of the measured side can remove (the systems compared, a
 * reference's cancelled cells or harness), with the reason.
 *
 * @param rule the rule whose flag stays
 * @param why why no control run removes it
 */
public record CannotSettle(String rule, String why) {
}
