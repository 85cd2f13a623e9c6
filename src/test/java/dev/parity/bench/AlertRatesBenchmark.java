package dev.parity.bench;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import dev.parity.history.AlertSimulation;
import org.junit.jupiter.api.Test;

/**
 * How often alerts are false, and how small a shift they find, on simulated nightly
 * series analysed night after night (no HTTP, no database: the analysis and the alert
 * decision themselves). False alerts per 1,000 runs on series of pure run-to-run noise
 * (1–10 %) for grids of 1 to 400 cells (decode and TTFT per cell), and per noise level
 * the smallest shift found at its night in one cell of a 200-cell grid and in every cell.
 * Seeds are fixed (printed); {@code -Dbench.alertSeed=} changes the first,
 * {@code -Dbench.alertSeries=} the series per configuration (25: 1,000 runs of 40
 * nights). Run with {@code ./mvnw -B -Pbench verify -Dtest=AlertRatesBenchmark}; figures
 * in {@code target/bench/alerts.md}.
 */
class AlertRatesBenchmark {

	private static final int NIGHTS = 40;

	private static final int SHIFT_NIGHT = 24;

	@Test
	void falseAlertsAndSmallestShifts() throws Exception {
		long seed = Long.getLong("bench.alertSeed", 1);
		int series = Integer.getInteger("bench.alertSeries", 25);
		int[] cells = { 1, 20, 100, 200, 400 };
		double[] noises = { 0.01, 0.02, 0.03, 0.05, 0.08, 0.10 };
		StringBuilder report = new StringBuilder();
		report.append("# Alerts on simulated series\n\nseed ")
			.append(seed)
			.append(", ")
			.append(series)
			.append(" series of ")
			.append(NIGHTS)
			.append(" nights per configuration (")
			.append(series * NIGHTS)
			.append(" runs)\n\n");
		report.append("## False alerts per 1,000 runs (pure noise; raised, withdrawn later or not)\n\n| noise |");
		for (int c : cells) {
			report.append(' ').append(c).append(" cells |");
		}
		report.append("\n|---|").append("---|".repeat(cells.length)).append('\n');
		for (double noise : noises) {
			report.append(String.format(Locale.ROOT, "| %.0f %% |", noise * 100));
			for (int c : cells) {
				AlertSimulation.Grid grid = grid(c);
				int alerts = 0;
				for (int s = 0; s < series; s++) {
					alerts += AlertSimulation.run(seed + s, grid, NIGHTS, noise, List.of()).size();
				}
				report.append(String.format(Locale.ROOT, " %.1f |", alerts * 1000.0 / (series * NIGHTS)));
				System.out.printf(Locale.ROOT, "noise %.2f cells %d: %d false alerts in %d runs%n", noise, c, alerts,
						series * NIGHTS);
			}
			report.append('\n');
		}
		report.append("\n## Smallest shift found at its night (every one of 3 seeds: one alert, at night 25, open)\n\n")
			.append("| noise | one cell of 200 (decode) | every cell of 200 (decode and TTFT) |\n|---|---|---|\n");
		for (double noise : noises) {
			report.append(String.format(Locale.ROOT, "| %.0f %% | %s | %s |%n", noise * 100,
					smallest(seed, noise, List.of(137)), smallest(seed, noise, List.of())));
		}
		Path out = Path.of("target", "bench", "alerts.md");
		Files.createDirectories(out.getParent());
		Files.writeString(out, report.toString(), StandardCharsets.UTF_8);
		System.out.println(report);
	}

	/**
	 * The smallest shift, in steps of 1 % from 5 % (the default {@code alert_magnitude}:
	 * no smaller change alerts) up to 30 %, found at its night with every seed.
	 */
	private static String smallest(long seed, double noise, List<Integer> shifted) {
		for (int percent = 5; percent <= 30; percent++) {
			double factor = 1 - percent / 100.0;
			boolean found = true;
			for (long s = seed; s < seed + 3 && found; s++) {
				List<AlertSimulation.Raised> alerts = AlertSimulation.run(s, grid(200), NIGHTS, noise, List
					.of(new AlertSimulation.Shift(SHIFT_NIGHT, shifted, factor, shifted.isEmpty() ? 1 / factor : 1)));
				found = alerts.size() == 1 && alerts.get(0).night() == SHIFT_NIGHT && !alerts.get(0).withdrawn();
			}
			if (found) {
				return percent + " %";
			}
		}
		return "> 30 %";
	}

	private static AlertSimulation.Grid grid(int cells) {
		return cells >= 10 ? new AlertSimulation.Grid(cells / 10, 10) : new AlertSimulation.Grid(1, cells);
	}

}
