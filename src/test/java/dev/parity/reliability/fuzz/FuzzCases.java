package dev.parity.reliability.fuzz;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs a property over many seeded cases and reports every case that breaks it, with the
 * seed that repeats it.
 * <p>
 * How many cases: {@code parity.fuzz.tries} is the budget shared by all the fuzz
 * properties (default 1,000 for {@code ./mvnw verify}; the {@code fuzz} profile sets
 * 50,000); each property takes its share. Which cases: the seed {@code parity.fuzz.seed}
 * (a fixed default, so CI is repeatable; {@code random} for a new one each run, printed
 * in the log). One case again: {@code -Dparity.fuzz.case=<case seed from the report>}.
 */
final class FuzzCases {

	private static final Logger log = LoggerFactory.getLogger(FuzzCases.class);

	private static final long DEFAULT_SEED = 0x5eed_2026_1129L;

	private static final int DEFAULT_BUDGET = 1_000;

	/** A report lists this many broken cases at most. */
	private static final int REPORTED = 15;

	private FuzzCases() {
	}

	/**
	 * One case of a property: throws (an assertion or anything else) when the property
	 * does not hold.
	 */
	@FunctionalInterface
	interface Case {

		void check(Random random, Tally tally) throws Exception;

	}

	/**
	 * Counts what the cases came to, so that a run shows it explored both sides (accepted
	 * and rejected).
	 */
	static final class Tally {

		private final Map<String, Integer> counts = new TreeMap<>();

		private int cases;

		/** How many cases ran. */
		int cases() {
			return cases;
		}

		void count(String outcome) {
			counts.merge(outcome, 1, Integer::sum);
		}

		int get(String outcome) {
			return counts.getOrDefault(outcome, 0);
		}

		@Override
		public String toString() {
			return counts.toString();
		}

	}

	/** The number of cases this property runs: its share of the budget. */
	static int tries(double share) {
		int budget = Integer.getInteger("parity.fuzz.tries", DEFAULT_BUDGET);
		return Math.max(1, (int) Math.round(budget * share));
	}

	/**
	 * Runs {@code tries(share)} cases of the property (or only the one named by
	 * {@code parity.fuzz.case}) and fails with the broken ones.
	 * @return what the cases came to
	 */
	static Tally check(String property, double share, Case body) {
		long base = BASE_SEED;
		String only = System.getProperty("parity.fuzz.case");
		int tries = only == null ? tries(share) : 1;
		Tally tally = new Tally();
		List<String> broken = new ArrayList<>();
		int brokenCount = 0;
		long started = System.nanoTime();
		for (int i = 0; i < tries; i++) {
			long seed = only == null ? caseSeed(base, property, i) : Long.parseUnsignedLong(only, 16);
			tally.cases++;
			try {
				body.check(new Random(seed), tally);
			}
			catch (Exception | AssertionError | StackOverflowError ex) {
				brokenCount++;
				if (brokenCount == 1) {
					log.warn("{}: the first broken case, with its stack trace", property, ex);
				}
				if (broken.size() < REPORTED) {
					broken.add("case " + i + " (-Dparity.fuzz.case=" + Long.toHexString(seed) + "): " + describe(ex));
				}
			}
		}
		log.info("{}: {} cases from seed {} in {} ms: {}", property, tries, Long.toHexString(base),
				(System.nanoTime() - started) / 1_000_000, tally);
		assertThat(broken)
			.as("%s: %d of %d cases broke the property (seed %s)", property, brokenCount, tries, Long.toHexString(base))
			.isEmpty();
		return tally;
	}

	/**
	 * One base seed for the whole run, so that the seed in the log repeats every property
	 * of it.
	 */
	private static final long BASE_SEED = baseSeed();

	private static long baseSeed() {
		String configured = System.getProperty("parity.fuzz.seed", "");
		if (configured.isBlank()) {
			return DEFAULT_SEED;
		}
		if (configured.equals("random")) {
			return new Random().nextLong();
		}
		return Long.parseUnsignedLong(configured, 16);
	}

	private static long caseSeed(long base, String property, int index) {
		long seed = base ^ ((long) property.hashCode() << 32) ^ (index * 0x9E3779B97F4A7C15L);
		// SplitMix64 finaliser: neighbouring indexes give unrelated seeds.
		seed = (seed ^ (seed >>> 30)) * 0xBF58476D1CE4E5B9L;
		seed = (seed ^ (seed >>> 27)) * 0x94D049BB133111EBL;
		return seed ^ (seed >>> 31);
	}

	private static String describe(Throwable ex) {
		// Hostile values (a 1,000-digit number) are repeated in messages: keep a report
		// readable.
		String message = String.valueOf(ex.getMessage()).replaceAll("(\\d{12})\\d{20,}", "$1…");
		if (message.length() > 1_500) {
			message = message.substring(0, 1_500) + "…";
		}
		return ex.getClass().getSimpleName() + ": " + message;
	}

}
