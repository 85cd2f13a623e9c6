package dev.parity.history;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * Simulated nightly series of a grid (prompt lengths × concurrencies, decode throughput
 * and TTFT per cell) with run-to-run noise and, where asked, shifts: analysed night after
 * night as the series grows, its alerts decided and reconciled as {@link Alerts} does (an
 * alert moves with its change points by up to 2 runs, else a new one is raised; one no
 * longer called for is withdrawn), without HTTP or a database.
 */
public final class AlertSimulation {

	/** A grid's size. */
	public record Grid(int promptLengths, int concurrencies) {

		public int cells() {
			return promptLengths * concurrencies;
		}

	}

	/**
	 * A shift from night {@code night} (0-based) in some cells: decode multiplied by
	 * {@code decode}, TTFT by {@code ttft}.
	 *
	 * @param cells the cells (indexes) that shift; empty = every cell
	 */
	public record Shift(int night, List<Integer> cells, double decode, double ttft) {
	}

	/**
	 * An alert as the simulation ends: the night it was raised, the night it is at, its
	 * changes; withdrawn or not.
	 */
	public record Raised(int raisedAt, int night, String direction, int changes, boolean withdrawn) {
	}

	private static final SeriesSettings SETTINGS = new SeriesSettings(50, 0.001, 0.05, 3, "engine", false);

	private AlertSimulation() {
	}

	/** The series' alerts after {@code nights} nightly analyses. */
	public static List<Raised> run(long seed, Grid grid, int nights, double noise, List<Shift> shifts) {
		Random random = new Random(seed);
		double[] decodeLevel = new double[grid.cells()];
		double[] ttftLevel = new double[grid.cells()];
		for (int c = 0; c < grid.cells(); c++) {
			int prompt = c / grid.concurrencies();
			int concurrency = c % grid.concurrencies();
			decodeLevel[c] = 2000.0 / (1 + concurrency) * (1 + 0.3 * random.nextDouble());
			ttftLevel[c] = 0.05 * (1 + prompt) * (1 + 0.2 * concurrency) * (1 + 0.3 * random.nextDouble());
		}
		SeriesAnalyser analyser = new SeriesAnalyser();
		List<RunFacts> runs = new ArrayList<>();
		Map<String, RunPair> pairs = new HashMap<>();
		SeriesAnalyser.Continuation from = null;
		List<Open> open = new ArrayList<>();
		List<Raised> done = new ArrayList<>();
		for (int night = 0; night < nights; night++) {
			List<RunFacts.CellFacts> cells = new ArrayList<>(grid.cells());
			for (int c = 0; c < grid.cells(); c++) {
				double decode = decodeLevel[c];
				double ttft = ttftLevel[c];
				for (Shift shift : shifts) {
					if (night >= shift.night() && (shift.cells().isEmpty() || shift.cells().contains(c))) {
						decode *= shift.decode();
						ttft *= shift.ttft();
					}
				}
				decode *= 1 + noise * random.nextGaussian();
				ttft *= 1 + noise * random.nextGaussian();
				int prompt = c / grid.concurrencies();
				int concurrency = c % grid.concurrencies();
				cells.add(new RunFacts.CellFacts("p" + prompt + "-c" + concurrency,
						Map.of("prompt_length", 128 << Math.min(prompt, 20), "concurrency", 1 + concurrency), 256.0,
						List.of(new RunFacts.MetricFacts("decode_tps", decode, List.of(), true, false),
								new RunFacts.MetricFacts("ttft", ttft, List.of(), false, true))));
			}
			Instant at = Instant.parse("2026-01-01T02:00:00Z").plusSeconds(86_400L * night);
			String id = "night-" + night;
			runs.add(new RunFacts(id, at, at, "0.11." + night, "c" + night, true, cells));
			if (night > 0) {
				pairs.put(id, new RunPair(id, "night-" + (night - 1), List.of(), List.of()));
			}
			SeriesAnalyser.Analysed analysed = analyser.analyse(runs, pairs, Set.of(), SETTINGS, from);
			from = analysed.continuation();
			List<AlertDecision.Proposed> decided = AlertDecision.decide(analysed.analysis(), SETTINGS);
			reconcile(night, decided, open, done);
		}
		for (Open alert : open) {
			done.add(new Raised(alert.raisedAt, alert.night, alert.direction, alert.changes, false));
		}
		return done;
	}

	private static final class Open {

		final int raisedAt;

		int night;

		final String direction;

		int changes;

		Open(int raisedAt, int night, String direction, int changes) {
			this.raisedAt = raisedAt;
			this.night = night;
			this.direction = direction;
			this.changes = changes;
		}

	}

	/**
	 * As {@link Alerts}: a proposed alert moves the open one of its direction within 2
	 * runs, else is raised.
	 */
	private static void reconcile(int now, List<AlertDecision.Proposed> proposed, List<Open> open, List<Raised> done) {
		List<Open> current = new ArrayList<>(open);
		for (AlertDecision.Proposed alert : AlertDecision.largestFirst(proposed)) {
			int night = Integer.parseInt(alert.run().substring("night-".length()));
			Open match = null;
			for (Open candidate : current) {
				if (candidate.direction.equals(alert.direction()) && Math.abs(candidate.night - night) <= 2
						&& (match == null || Math.abs(candidate.night - night) < Math.abs(match.night - night))) {
					match = candidate;
				}
			}
			if (match != null) {
				current.remove(match);
				match.night = night;
				match.changes = alert.changes().size();
			}
			else {
				open.add(new Open(now, night, alert.direction(), alert.changes().size()));
			}
		}
		for (Iterator<Open> it = open.iterator(); it.hasNext();) {
			Open alert = it.next();
			if (current.contains(alert)) {
				it.remove();
				done.add(new Raised(alert.raisedAt, alert.night, alert.direction, alert.changes, true));
			}
		}
	}

}
