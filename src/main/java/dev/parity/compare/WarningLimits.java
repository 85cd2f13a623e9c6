package dev.parity.compare;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.parity.run.Provenance;
import org.jspecify.annotations.Nullable;

/**
 * The numeric limits a run's engine warnings name, as {@code warning-inapplicable} reads
 * them: the flag a warning names is an engine flag of the run mentioned in it (names
 * compared as flags are), else the first flag-like name in it; the limit is the first
 * number after the name, else the flag's value.
 *
 * <p>
 * Each warning is read in time linear in its length, whatever it holds: its words and the
 * places where a number starts are found in one pass, then each flag of the run is looked
 * up among the words (a flag whose name is not one word is searched for with
 * Knuth–Morris–Pratt), and the number after a name is the next of those places. Each
 * flag's own value is read once per run, not once per warning.
 */
final class WarningLimits {

	/**
	 * A number as warnings write it: {@code 8168}, {@code 8,168}, {@code 0.9}; not the
	 * middle of another number.
	 */
	private static final Pattern NUMBER = Pattern.compile("(?<![\\d,])\\d[\\d,]*+(?:\\.\\d++)?+");

	/**
	 * A flag-like name in a warning: words joined by {@code _} or {@code -}, e.g.
	 * {@code max_num_seqs}.
	 */
	private static final Pattern FLAG_NAME = Pattern.compile("(?<![a-z0-9])[a-z][a-z0-9]*+(?:[-_][a-z0-9]++)++");

	private WarningLimits() {
	}

	/**
	 * The limits of the engine's warnings that name one, in the order of the warnings.
	 */
	static List<Found> of(Provenance.Engine engine) {
		List<EngineFlag> flags = flags(engine);
		List<Found> found = new ArrayList<>();
		for (String warning : engine.warnings()) {
			limit(warning, flags).ifPresent(limit -> found.add(new Found(warning, limit)));
		}
		return found;
	}

	/** The flag one warning names and its limit. */
	static Optional<Limit> limit(String warning, Provenance.Engine engine) {
		return limit(warning, flags(engine));
	}

	private static List<EngineFlag> flags(Provenance.Engine engine) {
		List<EngineFlag> flags = new ArrayList<>(engine.flags().size());
		engine.flags().forEach((name, value) -> flags.add(new EngineFlag(name, value)));
		return flags;
	}

	private static Optional<Limit> limit(String warning, List<EngineFlag> flags) {
		String lower = warning.toLowerCase(Locale.ROOT);
		Words words = new Words(lower.replace('_', '-'));
		for (EngineFlag flag : flags) {
			int at = flag.indexIn(words);
			if (at >= 0) {
				Optional<Double> value = words.numberFrom(at).or(flag::valueNumber);
				if (value.isPresent()) {
					return Optional.of(new Limit(flag.written(), value.get()));
				}
			}
		}
		// The first flag-like name decides: a number after a later name would be after
		// the first one too.
		Matcher name = FLAG_NAME.matcher(lower);
		if (name.find()) {
			Optional<Double> value = number(lower, name.end(), false);
			if (value.isPresent()) {
				return Optional.of(new Limit(name.group(), value.get()));
			}
		}
		return Optional.empty();
	}

	/**
	 * The first number of the text from {@code from} on, read as if the text began there
	 * (what comes before does not count): at {@code from} itself when {@code atStart},
	 * else anywhere after.
	 */
	private static Optional<Double> number(String text, int from, boolean atStart) {
		Matcher number = NUMBER.matcher(text).region(from, text.length());
		boolean found = atStart ? number.lookingAt() : number.find();
		return found ? Optional.of(Double.parseDouble(number.group().replace(",", ""))) : Optional.empty();
	}

	private static boolean isNamePart(char c) {
		return Character.isLetterOrDigit(c) || c == '-';
	}

	private static boolean isDigit(char c) {
		return c >= '0' && c <= '9';
	}

	/** A numeric limit an engine warning names. */
	record Limit(String flag, double value) {
	}

	/** A warning and the limit it names. */
	record Found(String warning, Limit limit) {
	}

	/**
	 * A warning as flags are looked up in it: lower-cased, {@code _} as {@code -}, read
	 * once.
	 */
	private static final class Words {

		private final String text;

		/**
		 * Each maximal run of name characters (letters, digits, {@code -}), at the first
		 * place it stands.
		 */
		private final Map<String, Integer> first = new HashMap<>();

		/**
		 * Where a number starts (a digit after neither a digit nor a comma), in order.
		 */
		private final int[] numberStarts;

		Words(String text) {
			this.text = text;
			int[] starts = new int[16];
			int count = 0;
			for (int i = 0; i < text.length(); i++) {
				if (isDigit(text.charAt(i)) && (i == 0 || !isDigit(text.charAt(i - 1)) && text.charAt(i - 1) != ',')) {
					if (count == starts.length) {
						starts = Arrays.copyOf(starts, count * 2);
					}
					starts[count++] = i;
				}
			}
			this.numberStarts = Arrays.copyOf(starts, count);
			int i = 0;
			while (i < text.length()) {
				if (!isNamePart(text.charAt(i))) {
					i++;
					continue;
				}
				int start = i;
				while (i < text.length() && isNamePart(text.charAt(i))) {
					i++;
				}
				first.putIfAbsent(text.substring(start, i), start);
			}
		}

		/**
		 * Where a flag's name first stands between non-name characters (or the ends), or
		 * -1.
		 */
		int indexOfWord(String name) {
			return first.getOrDefault(name, -1);
		}

		/** The first number from {@code at} on, as if the text began at {@code at}. */
		Optional<Double> numberFrom(int at) {
			if (at < text.length() && isDigit(text.charAt(at))) {
				return number(text, at, true);
			}
			int next = Arrays.binarySearch(numberStarts, at + 1);
			int index = next >= 0 ? next : -next - 1;
			return index < numberStarts.length ? number(text, numberStarts[index], true) : Optional.empty();
		}

		boolean bounded(int at, int end) {
			return (at == 0 || !isNamePart(text.charAt(at - 1)))
					&& (end == text.length() || !isNamePart(text.charAt(end)));
		}

	}

	/** An engine flag as warnings are searched for it. */
	private static final class EngineFlag {

		private final String written;

		private final String value;

		private final String name;

		/**
		 * Whether the normalised name is one word of name characters, found among a
		 * warning's words.
		 */
		private final boolean word;

		private int @Nullable [] prefixes;

		private Optional<Double> valueNumber = Optional.empty();

		private boolean valueRead;

		EngineFlag(String written, String value) {
			this.written = written;
			this.value = value;
			this.name = Provenance.Engine.normaliseFlag(written);
			boolean word = !name.isEmpty();
			for (int i = 0; i < name.length() && word; i++) {
				word = isNamePart(name.charAt(i));
			}
			this.word = word;
		}

		String written() {
			return written;
		}

		/** The first number of the flag's value, read once. */
		Optional<Double> valueNumber() {
			if (!valueRead) {
				valueNumber = number(value, 0, false);
				valueRead = true;
			}
			return valueNumber;
		}

		/**
		 * Where the name first stands in the warning between non-name characters (or its
		 * ends), or -1.
		 */
		int indexIn(Words words) {
			if (word) {
				return words.indexOfWord(name);
			}
			String text = words.text;
			if (name.isEmpty()) {
				for (int at = 0; at <= text.length(); at++) {
					if (words.bounded(at, at)) {
						return at;
					}
				}
				return -1;
			}
			int[] border = prefixes();
			for (int i = 0, k = 0; i < text.length(); i++) {
				while (k > 0 && text.charAt(i) != name.charAt(k)) {
					k = border[k - 1];
				}
				if (text.charAt(i) == name.charAt(k)) {
					k++;
				}
				if (k == name.length()) {
					if (words.bounded(i + 1 - k, i + 1)) {
						return i + 1 - k;
					}
					k = border[k - 1];
				}
			}
			return -1;
		}

		/**
		 * Knuth–Morris–Pratt's table: for each prefix of the name, its longest proper
		 * border.
		 */
		private int[] prefixes() {
			if (prefixes == null) {
				int[] border = new int[name.length()];
				for (int i = 1, k = 0; i < name.length(); i++) {
					while (k > 0 && name.charAt(i) != name.charAt(k)) {
						k = border[k - 1];
					}
					if (name.charAt(i) == name.charAt(k)) {
						k++;
					}
					border[i] = k;
				}
				prefixes = border;
			}
			return prefixes;
		}

	}

}
