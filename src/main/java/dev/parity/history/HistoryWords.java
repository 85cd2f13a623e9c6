package dev.parity.history;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.parity.run.MetricCatalogue;
import dev.parity.run.MetricDefinition;
import org.jspecify.annotations.Nullable;

/**
 * History said in words people read: a cell by its parameters ("c=1 × 512 tokens"), a
 * change by the metric's short name with its sign ("decode −8.7 %"), whether that is
 * worse or better, a p-value rounded, a series by what it measures ("H100 box /
 * org/model-7b / vllm").
 */
public final class HistoryWords {

	/** The minus sign people read, not the hyphen. */
	static final String MINUS = "\u2212";

	private HistoryWords() {
	}

	/**
	 * A cell in words from its parameters, in a general way: concurrency as {@code c=8},
	 * a prompt (input) length in tokens as {@code 512 tokens}, an output length as
	 * {@code 256 tokens out}, a request rate as {@code 4 req/s}, a batch size as
	 * {@code batch 16}; any other parameter as its name and value. Concurrency comes
	 * first; the rest keep their order; the parts are joined by " × ". Without
	 * parameters, the anchor.
	 */
	public static String cell(Map<String, ? extends @Nullable Object> params, String anchor) {
		List<String> first = new ArrayList<>();
		List<String> rest = new ArrayList<>();
		params.forEach((name, value) -> {
			String text = value(value);
			String key = name.toLowerCase(Locale.ROOT);
			if (key.equals("concurrency") || key.equals("max_concurrency") || key.endsWith("_concurrency")) {
				first.add("c=" + text);
			}
			else if (tokens(key) && (key.contains("prompt") || key.contains("input") || key.contains("isl")
					|| key.contains("context"))) {
				rest.add(text + " tokens");
			}
			else if (tokens(key) && (key.contains("output") || key.contains("max_tokens") || key.contains("osl")
					|| key.contains("generation"))) {
				rest.add(text + " tokens out");
			}
			else if (key.equals("request_rate") || key.equals("rate") || key.equals("qps") || key.endsWith("_rate")) {
				rest.add(text + " req/s");
			}
			else if (key.equals("batch_size") || key.equals("batch")) {
				rest.add("batch " + text);
			}
			else {
				rest.add(name + " " + text);
			}
		});
		first.addAll(rest);
		return first.isEmpty() ? anchor : String.join(" × ", first);
	}

	private static boolean tokens(String key) {
		return key.endsWith("tokens") || key.endsWith("_len") || key.endsWith("_length") || key.equals("isl")
				|| key.equals("osl");
	}

	private static String value(@Nullable Object value) {
		if (value instanceof Number number) {
			return number(number.doubleValue());
		}
		if (value instanceof String text && !text.isBlank()) {
			try {
				return number(Double.parseDouble(text.strip()));
			}
			catch (NumberFormatException ex) {
				return text;
			}
		}
		return String.valueOf(value);
	}

	/**
	 * The format of {@link #number}, one a thread (a format is not safe to share, and
	 * making one is most of a number's cost).
	 */
	private static final ThreadLocal<DecimalFormat> NUMBER = ThreadLocal.withInitial(() -> {
		DecimalFormat format = new DecimalFormat("#,##0.###", DecimalFormatSymbols.getInstance(Locale.US));
		format.setRoundingMode(RoundingMode.HALF_UP);
		return format;
	});

	/** {@code 1024} → {@code 1,024}; {@code 0.5} → {@code 0.5}. */
	static String number(double value) {
		return NUMBER.get().format(value).replace("-", MINUS);
	}

	/**
	 * A metric's short name, as people say it: {@code decode_tps} → decode,
	 * {@code ttft_s} → TTFT; a metric the catalogue does not name shortly keeps its own
	 * name.
	 */
	public static String metric(String name) {
		return MetricCatalogue.defaults().find(name).map(MetricDefinition::shortName).orElse(name);
	}

	/**
	 * The relative change from {@code before} to {@code after}, signed, one decimal:
	 * {@code −8.7 %}, {@code +12.0 %}.
	 */
	public static String signed(double before, double after) {
		if (before == 0) {
			return "n/a";
		}
		double percent = (after / before - 1) * 100;
		String digits = String.format(Locale.ROOT, "%.1f", Math.abs(percent));
		if (digits.equals("0.0")) {
			return "±0.0 %";
		}
		return (percent < 0 ? MINUS : "+") + digits + " %";
	}

	/** A change of a metric, its short name and its signed change: "decode −8.7 %". */
	public static String change(String metric, double before, double after) {
		return metric(metric) + " " + signed(before, after);
	}

	/**
	 * Whether a change from {@code before} to {@code after} is {@code worse} or
	 * {@code better} for the metric (by its direction in the catalogue; a metric it does
	 * not know counts lower as better), or {@code same}.
	 */
	public static String direction(String metric, double before, double after) {
		if (after == before) {
			return "same";
		}
		boolean higher = MetricCatalogue.defaults().get(metric).higherIsBetter();
		return (after > before) == higher ? "better" : "worse";
	}

	/**
	 * A p-value rounded for reading: {@code p < 0.0001}, {@code p = 0.0032},
	 * {@code p = 0.41}.
	 */
	public static String pvalue(double p) {
		if (Double.isNaN(p)) {
			return "p unknown";
		}
		if (p < 0.0001) {
			return "p < 0.0001";
		}
		BigDecimal rounded = new BigDecimal(p).round(new MathContext(2, RoundingMode.HALF_UP));
		return "p = " + rounded.stripTrailingZeros().toPlainString();
	}

	/**
	 * A series by what it measures: "system / model / engine", with its branch when that
	 * is not the default one.
	 */
	public static String series(SeriesKey key, String defaultBranch) {
		String name = key.system() + " / " + key.model() + " / " + key.engine();
		return key.branch().equals(defaultBranch) ? name : name + " · branch " + key.branch();
	}

}
