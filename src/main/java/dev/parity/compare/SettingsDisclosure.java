package dev.parity.compare;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

/**
 * What a comparison computed with settings other than the server's defaults must say
 * about them: each setting that differs, and how many numbers the defaults grey that
 * these settings let through. A loosened threshold is never silent, so a "+101 %" made
 * comparable by {@code output_tolerance=10} says so wherever it is shown.
 *
 * @param nonDefault every setting that differs from the default, in the order of
 * {@link CompareSettings#asMap()}
 * @param ungreyed how many cell × metric values the defaults grey that are comparable
 * under these settings
 */
public record SettingsDisclosure(List<Difference> nonDefault, int ungreyed) {

	public SettingsDisclosure {
		nonDefault = List.copyOf(nonDefault);
	}

	/**
	 * One setting that differs from the server's default.
	 *
	 * @param name the URL name ({@code output_tolerance})
	 * @param value the value in force: a {@link Double}, a {@link String} or a list of
	 * strings
	 * @param standard the server's default, of the same kind
	 */
	public record Difference(String name, Object value, Object standard) {
	}

	/**
	 * The settings that differ from the defaults; {@code critical_flags} compare as a set
	 * (their order says nothing). Service-level objectives are not among them: they
	 * choose what goodput counts and grey nothing.
	 */
	public static List<Difference> differences(CompareSettings settings, CompareSettings defaults) {
		Map<String, Object> standard = defaults.asMap();
		List<Difference> differences = new ArrayList<>();
		settings.asMap().forEach((name, value) -> {
			if (ServiceLevels.NAMES.contains(name)) {
				return;
			}
			Object other = standard.get(name);
			boolean same = value instanceof List<?> list && other instanceof List<?> otherList
					? new HashSet<>(list).equals(new HashSet<>(otherList)) : Objects.equals(value, other);
			if (!same) {
				differences.add(new Difference(name, value, other));
			}
		});
		return differences;
	}

	/**
	 * The disclosure of a comparison: its settings against the defaults and, when they
	 * differ, the same two runs compared with the defaults to count what the defaults
	 * grey and these settings do not. That comparison is read for what it greys only, so
	 * it draws no interval over samples: what a rule greys never depends on one.
	 */
	public static SettingsDisclosure of(Comparison here, CompareSettings defaults) {
		List<Difference> differences = differences(here.settings(), defaults);
		if (differences.isEmpty()) {
			return of(here, null, defaults);
		}
		if (differences.stream().allMatch(difference -> difference.name().equals("vary"))) {
			return new SettingsDisclosure(differences, ungreyedByVary(here, defaults));
		}
		Comparison underDefaults = new ComparisonBuilder().compare(List.of(here.baseline()), List.of(here.contender()),
				defaults, BootstrapMedians.NONE);
		return of(here, underDefaults, defaults);
	}

	/**
	 * The disclosure of a comparison, given the same two runs compared with the defaults.
	 * @param here the comparison as computed with its settings
	 * @param underDefaults the same two runs compared with the defaults; {@code null}
	 * when the settings are the defaults
	 */
	static SettingsDisclosure of(Comparison here, @Nullable Comparison underDefaults, CompareSettings defaults) {
		List<Difference> differences = differences(here.settings(), defaults);
		if (differences.isEmpty() || underDefaults == null) {
			return new SettingsDisclosure(differences, 0);
		}
		Set<String> greyedByDefaults = new HashSet<>();
		for (ComparedCell cell : underDefaults.cells()) {
			for (ComparedMetric metric : cell.metrics()) {
				if (!metric.comparable()) {
					greyedByDefaults.add(cell.anchor() + "\n" + metric.metric());
				}
			}
		}
		int ungreyed = 0;
		for (ComparedCell cell : here.cells()) {
			for (ComparedMetric metric : cell.metrics()) {
				if (metric.comparable() && greyedByDefaults.contains(cell.anchor() + "\n" + metric.metric())) {
					ungreyed++;
				}
			}
		}
		return new SettingsDisclosure(differences, ungreyed);
	}

	/**
	 * What the defaults grey that these settings let through when they differ in
	 * {@code vary} alone (a verdict's {@code vary=engine}): {@code vary} is read by the
	 * provenance rules only, so under the defaults every other flag is the same, and a
	 * value comparable here is greyed there exactly when a provenance flag of the
	 * defaults greys its metric. The same count as comparing the two runs again (tested
	 * against it), without the run checks, cell pairs and metrics computed a second time.
	 */
	static int ungreyedByVary(Comparison here, CompareSettings defaults) {
		List<Flag> underDefaults = ComparisonBuilder.provenanceFlags(here.baseline(), here.contender(), defaults);
		if (underDefaults.isEmpty()) {
			return 0;
		}
		Map<String, Boolean> greyed = new HashMap<>();
		int ungreyed = 0;
		for (ComparedCell cell : here.cells()) {
			for (ComparedMetric metric : cell.metrics()) {
				if (metric.comparable() && greyed.computeIfAbsent(metric.metric(),
						name -> underDefaults.stream().anyMatch(flag -> flag.greys(name)))) {
					ungreyed++;
				}
			}
		}
		return ungreyed;
	}

	/** A setting as words: its name, its value and its default. */
	public record Shown(String name, String value, String standard) {
	}

	/**
	 * The line every page and export of a comparison with non-default settings starts
	 * with, or {@code null} under the defaults: "Thresholds loosened: output_tolerance 10
	 * (default 0.1) — 17 cell × metric values that the defaults grey are shown as
	 * comparable". The settings come as text, as a stored snapshot holds them.
	 */
	public static @Nullable String sentence(List<Shown> nonDefault, int ungreyed) {
		if (nonDefault.isEmpty()) {
			return null;
		}
		String settings = nonDefault.stream()
			.map(s -> s.name() + " " + s.value() + " (default " + s.standard() + ")")
			.collect(Collectors.joining(", "));
		if (ungreyed == 0) {
			return "Settings differ from the defaults: " + settings
					+ " — no cell × metric value that the defaults grey is shown as comparable";
		}
		return "Thresholds loosened: " + settings + " — " + Figures.number(ungreyed)
				+ (ungreyed == 1 ? " cell × metric value that the defaults grey is shown as comparable"
						: " cell × metric values that the defaults grey are shown as comparable");
	}

	/**
	 * A setting's value as written in URLs: {@code 0.1}, {@code checkpoint},
	 * {@code kv-cache-dtype,dtype} or {@code none}.
	 */
	public static String text(Object value) {
		if (value instanceof Double number) {
			// As typed in a URL, every digit kept: a tolerance of 0.125 is not "0.13".
			return BigDecimal.valueOf(number).stripTrailingZeros().toPlainString();
		}
		if (value instanceof List<?> list) {
			return list.isEmpty() ? "none" : list.stream().map(Object::toString).collect(Collectors.joining(","));
		}
		return String.valueOf(value);
	}

}
