package dev.parity.compare;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.parity.run.Provenance;
import dev.parity.run.RunDocument;
import org.junit.jupiter.api.Test;

import static dev.parity.compare.TestRuns.aRun;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

class WarningInapplicableTests {

	private static final String CLAMPED = "max_num_batched_tokens was clamped to 8168; this may lead to suboptimal performance";

	private final WarningInapplicable rule = new WarningInapplicable();

	@Test
	void annotatesShortPromptCellsOnly() {
		var flags = TestRuns.check(rule,
				aRun().flag("max-num-batched-tokens", "8168")
					.warning(CLAMPED)
					.cell(c -> c.params("prompt_tokens", 280, "concurrency", 1))
					.cell(c -> c.params("prompt_tokens", 8192, "concurrency", 1)),
				CompareSettings.defaults());

		assertThat(flags).singleElement().satisfies(flag -> {
			assertThat(flag.rule()).isEqualTo("warning-inapplicable");
			assertThat(flag.isAnnotation()).isTrue();
			assertThat(flag.message()).startsWith("engine warning \"" + CLAMPED
					+ "\" cannot explain this cell: 280 prompt tokens vs max-num-batched-tokens limit 8,168");
		});
	}

	@Test
	void firesAtExactlyATenthOfTheLimitSinceTheRuleSaysAtMost() {
		assertThat(TestRuns.check(rule,
				aRun().warning("max_num_batched_tokens was clamped to 8000").cell(c -> c.params("prompt_tokens", 800)),
				CompareSettings.defaults()))
			.hasSize(1);
		assertThat(TestRuns.check(rule,
				aRun().warning("max_num_batched_tokens was clamped to 8000").cell(c -> c.params("prompt_tokens", 801)),
				CompareSettings.defaults()))
			.isEmpty();
	}

	@Test
	void matchesFlagNamesAsFlagsCompareAndTakesTheFlagsValueWhenTheWarningHasNoNumber() {
		var flags = TestRuns.check(rule,
				aRun().flag("--Max_Num_Batched_Tokens", "16384")
					.warning("MAX-NUM-BATCHED-TOKENS is below the model length")
					.cell(c -> c.params("prompt_tokens", 1024)),
				CompareSettings.defaults());

		assertThat(flags).singleElement().satisfies(flag -> assertThat(flag.message()).contains("limit 16,384"));
	}

	@Test
	void staysQuietWithoutANumericLimitOrPromptLength() {
		assertThat(
				TestRuns.check(rule, aRun().warning("the tokenizer is slow").cell(c -> c.params("prompt_tokens", 10)),
						CompareSettings.defaults()))
			.isEmpty();
		assertThat(TestRuns.check(rule, aRun().warning(CLAMPED).cell(c -> c.params("concurrency", 1)),
				CompareSettings.defaults()))
			.isEmpty();
	}

	@Test
	void namesAtMostFiveWarningsPerCellAndCountsTheRest() {
		RunBuilderWarnings run = new RunBuilderWarnings(7);
		var flags = TestRuns.check(rule, run.builder.cell(c -> c.params("prompt_tokens", 10)),
				CompareSettings.defaults());

		assertThat(flags).hasSize(WarningInapplicable.MOST_PER_CELL + 1);
		assertThat(flags.subList(0, WarningInapplicable.MOST_PER_CELL))
			.allSatisfy(flag -> assertThat(flag.message()).startsWith("engine warning \"max_num_seqs"));
		assertThat(flags.get(WarningInapplicable.MOST_PER_CELL).shortForm()).isEqualTo("+2 more warnings");
		assertThat(flags.get(WarningInapplicable.MOST_PER_CELL).message())
			.startsWith("2 more engine warnings of this run cannot explain this cell either");
	}

	@Test
	void quotesALongWarningByItsStart() {
		String warning = "max_num_batched_tokens was clamped to 8000; " + "and so on ".repeat(100);
		var flags = TestRuns.check(rule, aRun().warning(warning).cell(c -> c.params("prompt_tokens", 10)),
				CompareSettings.defaults());

		assertThat(flags).singleElement()
			.satisfies(flag -> assertThat(flag.message()).startsWith(
					"engine warning \"" + warning.substring(0, WarningInapplicable.QUOTED) + "…\" cannot explain"));
	}

	/**
	 * The warnings are read once for the run, not once per cell: every cell's check gets
	 * the same limits, found before the first cell is checked.
	 */
	@Test
	void readsTheWarningsOncePerRun() {
		RunBuilderWarnings warnings = new RunBuilderWarnings(3);
		for (int prompt = 1; prompt <= 20; prompt++) {
			int tokens = prompt;
			warnings.builder.cell(c -> c.params("prompt_tokens", tokens));
		}
		RunDocument document = warnings.builder.document();
		RunContext context = TestRuns.context(document, CompareSettings.defaults());
		List<WarningLimits.Found> first = context.warningLimits();
		document.cells().forEach(cell -> rule.check(cell, context));

		assertThat(first).hasSize(3);
		assertThat(context.warningLimits()).isSameAs(first);
	}

	/**
	 * The shapes that made the scan quadratic ({@code "a-a "} × 20,000: a copy of the
	 * rest of the warning and a search for a number at every flag-like word, for every
	 * cell) and those that would make a search for the run's flags quadratic (a flag's
	 * name almost repeated): a 20-cell run is checked at once. The timeout only guards
	 * against a hang; the scan is linear by construction (one pass over each warning, see
	 * {@link WarningLimits}).
	 */
	@Test
	void checksWarningsOfAnyLengthAtOnce() {
		List<String> hostile = List.of("a-a ".repeat(20_000), "a-a".repeat(30_000) + " 5", "x-" + ",1".repeat(40_000),
				"aaaa".repeat(25_000) + "b", "aa.".repeat(30_000) + "aa.b 7", "9".repeat(100_000),
				"--" + " -".repeat(50_000));
		TestRuns.RunBuilder run = aRun().flag("max-num-seqs", "256")
			.flag("a" + "a".repeat(2_000) + "b", "1")
			.flag("aa.aa.aa.aa.aa.b", "2")
			.flag("--", "3");
		hostile.forEach(run::warning);
		for (int prompt = 1; prompt <= 20; prompt++) {
			int tokens = prompt;
			run.cell(c -> c.params("prompt_tokens", tokens, "concurrency", 1));
		}
		List<Flag> flags = assertTimeoutPreemptively(Duration.ofSeconds(20),
				() -> TestRuns.check(rule, run, CompareSettings.defaults()));

		assertThat(flags).hasSizeLessThanOrEqualTo(20 * (WarningInapplicable.MOST_PER_CELL + 1));
		assertThat(flags).allSatisfy(flag -> assertThat(flag.message()).hasSizeLessThan(1_000));
	}

	/**
	 * On warnings and flags made of the characters that matter (letters, digits,
	 * {@code -}, {@code _}, commas, dots, spaces, upper case), the linear reading finds
	 * what the scan it replaced found, case by case.
	 */
	@Test
	void findsWhatTheQuadraticScanFound() {
		Random random = new Random(20261203);
		String alphabet = "aab-_ 1,9.xA=(";
		for (int i = 0; i < 20_000; i++) {
			Map<String, String> flags = new LinkedHashMap<>();
			for (int f = random.nextInt(4); f > 0; f--) {
				// Not a name of dashes only: the scan it replaced never ended on one (see
				// below).
				flags.put("a" + text(random, "-ab_1x.", random.nextInt(6)), text(random, "1,9.x ", random.nextInt(6)));
				flags.put(text(random, "-ab_1x.", 1 + random.nextInt(6)) + "b",
						text(random, "1,9.x ", random.nextInt(6)));
			}
			String warning = text(random, alphabet, random.nextInt(30));
			Provenance.Engine engine = new Provenance.Engine("vllm", null, flags, List.of(warning));

			assertThat(WarningLimits.limit(warning, engine)).as("%s in %s", flags, warning)
				.isEqualTo(previous(warning, engine));
		}
	}

	/**
	 * A flag named only with dashes is a name of nothing: the scan it replaced looped for
	 * ever on it.
	 */
	@Test
	void aFlagOfDashesOnlyEndsTheScan() {
		var flags = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> TestRuns.check(rule,
				aRun().flag("--", "4096").warning("max_num_seqs is low").cell(c -> c.params("prompt_tokens", 10)),
				CompareSettings.defaults()));

		assertThat(flags).isEmpty();
	}

	private static String text(Random random, String alphabet, int length) {
		StringBuilder text = new StringBuilder(length);
		for (int i = 0; i < length; i++) {
			text.append(alphabet.charAt(random.nextInt(alphabet.length())));
		}
		return text.toString();
	}

	/** A run with warnings that each name a limit no 10-token prompt reaches. */
	private static final class RunBuilderWarnings {

		final TestRuns.RunBuilder builder = aRun();

		RunBuilderWarnings(int count) {
			for (int i = 0; i < count; i++) {
				builder.warning("max_num_seqs is " + (1000 + i) + " here");
			}
		}

	}

	private static final Pattern NUMBER = Pattern.compile("(?<![\\d,])\\d[\\d,]*+(?:\\.\\d++)?+");

	private static final Pattern FLAG_NAME = Pattern.compile("(?<![a-z0-9])[a-z][a-z0-9]*+(?:[-_][a-z0-9]++)++");

	/**
	 * The scan as it was before it was made linear: the reference the linear reading is
	 * held to.
	 */
	private static Optional<WarningLimits.Limit> previous(String warning, Provenance.Engine engine) {
		String text = warning.toLowerCase(Locale.ROOT).replace('_', '-');
		for (String flag : engine.flags().keySet()) {
			int at = indexOfName(text, Provenance.Engine.normaliseFlag(flag));
			if (at >= 0) {
				Optional<Double> value = firstNumber(text.substring(at))
					.or(() -> firstNumber(engine.flags().get(flag)));
				if (value.isPresent()) {
					return Optional.of(new WarningLimits.Limit(flag, value.get()));
				}
			}
		}
		Matcher name = FLAG_NAME.matcher(warning.toLowerCase(Locale.ROOT));
		while (name.find()) {
			Optional<Double> value = firstNumber(warning.substring(name.end()));
			if (value.isPresent()) {
				return Optional.of(new WarningLimits.Limit(name.group(), value.get()));
			}
		}
		return Optional.empty();
	}

	private static int indexOfName(String text, String name) {
		for (int at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + 1)) {
			int end = at + name.length();
			boolean before = at == 0 || !(Character.isLetterOrDigit(text.charAt(at - 1)) || text.charAt(at - 1) == '-');
			boolean after = end == text.length()
					|| !(Character.isLetterOrDigit(text.charAt(end)) || text.charAt(end) == '-');
			if (before && after) {
				return at;
			}
		}
		return -1;
	}

	private static Optional<Double> firstNumber(String text) {
		Matcher number = NUMBER.matcher(text);
		return number.find() ? Optional.of(Double.parseDouble(number.group().replace(",", ""))) : Optional.empty();
	}

}
