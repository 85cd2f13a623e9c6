package dev.parity.compare;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * What an automatic check found, shown next to the number it concerns: the rule that
 * fired, why, and which metrics it greys. A flag that greys nothing is an annotation.
 *
 * @param rule the rule id, e.g. {@code output-length-differs}
 * @param shortForm what was found, in a few words with its numbers, to stand beside the
 * number it greys ("512 vs 845 tokens/request", "4 of 4 cancelled"); {@code "short"} in
 * JSON
 * @param message why, with the numbers, naming the control that would remove the flag
 * @param greys the metrics it greys, in catalogue order; empty for an annotation
 * @param side {@code baseline} or {@code contender} for a run check carried into a
 * comparison; {@code null} otherwise
 * @param metric the one metric an annotation is about (e.g. {@code skewed}); {@code null}
 * when it concerns a cell, a run or the comparison as a whole
 */
public record Flag(String rule, String shortForm, String message, Set<String> greys, @Nullable String side,
		@Nullable String metric) {

	public static final String BASELINE = "baseline";

	public static final String CONTENDER = "contender";

	public Flag {
		greys = Collections.unmodifiableSet(new LinkedHashSet<>(greys));
	}

	public Flag(String rule, String shortForm, String message, Set<String> greys, @Nullable String side) {
		this(rule, shortForm, message, greys, side, null);
	}

	static Flag annotation(String rule, String shortForm, String message) {
		return new Flag(rule, shortForm, message, Set.of(), null, null);
	}

	static Flag annotationOf(String rule, String metric, String shortForm, String message) {
		return new Flag(rule, shortForm, message, Set.of(), null, metric);
	}

	static Flag greying(String rule, String shortForm, String message, Collection<String> greys) {
		return new Flag(rule, shortForm, message, new LinkedHashSet<>(greys), null, null);
	}

	/** This flag carried into a comparison from one side's run checks. */
	Flag onSide(String side) {
		return new Flag(rule, shortForm, message, greys, side, metric);
	}

	public boolean isAnnotation() {
		return greys.isEmpty();
	}

	public boolean greys(String metric) {
		return greys.contains(metric);
	}

	/**
	 * Whether a reader of this metric's number must see this flag: it greys the metric or
	 * is about it.
	 */
	public boolean concerns(String metric) {
		return greys(metric) || metric.equals(this.metric);
	}

}
