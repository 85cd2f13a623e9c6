package dev.parity.compare;

import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;

import dev.parity.run.Cell;
import dev.parity.run.Params;
import dev.parity.run.Run;

/**
 * Grid parameters fixed on one side of a comparison, written after the side's run ids in
 * a URL: {@code k3v9x0q2ab@setting=thinking=false}. The side keeps only its cells with
 * these values, and the parameters leave the cells' coordinates, so cells are matched on
 * the others. This compares cells of one run that differ in one parameter
 * ({@code r@concurrency=1...r@concurrency=8}), or a run against one slice of a larger
 * grid ({@code ref...probe@setting=thinking=false}). Each run's own checks still see the
 * whole run.
 *
 * @param values parameter name to its value as written in anchors and URLs
 * ({@link Params#format})
 */
public record FixedParams(SortedMap<String, String> values) {

	public static final FixedParams NONE = new FixedParams(new TreeMap<>());

	public FixedParams {
		values = Collections.unmodifiableSortedMap(new TreeMap<>(values));
	}

	/**
	 * Reads {@code name=value} selectors (the value may itself contain {@code =}, e.g.
	 * {@code setting=thinking=false}).
	 * @throws IllegalArgumentException naming a selector without a name or a value, or a
	 * parameter fixed twice
	 */
	public static FixedParams parse(Iterable<String> selectors) {
		SortedMap<String, String> values = new TreeMap<>();
		for (String selector : selectors) {
			int eq = selector.indexOf('=');
			if (eq <= 0 || eq == selector.length() - 1) {
				throw new IllegalArgumentException("'@" + selector
						+ "' does not fix a parameter: write @name=value, e.g. @concurrency=8 or @setting=thinking=false");
			}
			String name = selector.substring(0, eq);
			if (values.put(name, selector.substring(eq + 1)) != null) {
				throw new IllegalArgumentException("the parameter '" + name + "' is fixed twice on one side");
			}
		}
		return new FixedParams(values);
	}

	public boolean isEmpty() {
		return values.isEmpty();
	}

	/**
	 * As written in URLs after the run ids:
	 * {@code @concurrency=8@setting=thinking=false}, or nothing.
	 */
	public String path() {
		return values.entrySet().stream().map(e -> "@" + e.getKey() + "=" + e.getValue()).collect(Collectors.joining());
	}

	/** {@code concurrency=8, setting=thinking=false}: for people. */
	public String label() {
		return values.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(", "));
	}

	/** Whether the cell is on this side: it has every fixed parameter with its value. */
	public boolean keeps(Params params) {
		return values.entrySet()
			.stream()
			.allMatch(
					e -> params.get(e.getKey()).map(value -> Params.format(value).equals(e.getValue())).orElse(false));
	}

	/** The coordinates a kept cell is matched on: its params without the fixed ones. */
	public Params strip(Params params) {
		Params rest = params;
		for (String name : values.keySet()) {
			rest = rest.without(name);
		}
		return rest;
	}

	/**
	 * The cell as this side shows it: the same cell, matched on the other coordinates.
	 */
	Cell strip(Cell cell) {
		return new Cell(strip(cell.params()), cell.order(), cell.requests(), cell.outputTokens(),
				cell.reasoningTokens(), cell.metrics(), cell.samples(), cell.statistics());
	}

	/**
	 * Why these parameters select nothing of the run, if they do not: a parameter the
	 * run's grid does not have (with those it has), or a value it never takes (with those
	 * it takes).
	 */
	public Optional<String> problemWith(Run run) {
		if (isEmpty()) {
			return Optional.empty();
		}
		for (Map.Entry<String, String> fixed : values.entrySet()) {
			Set<String> taken = new LinkedHashSet<>();
			Set<String> allNames = new LinkedHashSet<>();
			for (Cell cell : run.cells()) {
				allNames.addAll(cell.params().values().keySet());
				cell.params().get(fixed.getKey()).map(Params::format).ifPresent(taken::add);
			}
			if (taken.isEmpty()) {
				return Optional.of("run " + run.id() + " has no grid parameter '" + fixed.getKey()
						+ "' (its parameters: " + String.join(", ", allNames) + ")");
			}
			if (!taken.contains(fixed.getValue())) {
				return Optional.of("run " + run.id() + " has no cell with " + fixed.getKey() + "=" + fixed.getValue()
						+ " (its values: " + String.join(", ", taken) + ")");
			}
		}
		if (run.cells().stream().noneMatch(cell -> keeps(cell.params()))) {
			return Optional.of("run " + run.id() + " has no cell with " + label() + " together");
		}
		return Optional.empty();
	}

}
