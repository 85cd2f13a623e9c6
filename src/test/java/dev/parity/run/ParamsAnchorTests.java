package dev.parity.run;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Cell anchors are in links people have published: they must read as they always did. */
class ParamsAnchorTests {

	@Test
	void anchorsAreTheOnesLinksAlreadyUse() {
		assertThat(Params.of(Map.of("prompt_tokens", new BigDecimal("32768.0"), "concurrency", 4)).anchor())
			.isEqualTo("cell-concurrency-4--prompt_tokens-32768");
		assertThat(Params.of(Map.of("Dataset", "ShareGPT v3", "rate", new BigDecimal("0.50"))).anchor())
			.isEqualTo("cell-dataset-sharegpt-v3--rate-0.5");
	}

	@Test
	void everyCharacterOutsideTheSafeSetBecomesOneDash() {
		List<String> texts = List.of("a b/c?d#e", "ÄÖü", "İstanbul", "ΣΟΦΟΣ", "emoji 🚀 x", "tab\tnew\nline", "x%20y",
				"A.B_C-D", "中文", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢", "");
		for (String text : texts) {
			Map<String, Object> values = new LinkedHashMap<>();
			values.put("name " + text, text);
			values.put("n", new BigDecimal("1E+3"));
			Params params = Params.of(values);
			assertThat(params.anchor()).as(text).isEqualTo(asWrittenBefore(params));
		}
	}

	/**
	 * How anchors were written before: joined, lower-cased, then one regular expression
	 * over the whole.
	 */
	private static String asWrittenBefore(Params params) {
		String joined = params.values()
			.entrySet()
			.stream()
			.map(e -> e.getKey() + "-" + Params.format(e.getValue()))
			.collect(Collectors.joining("--"));
		return "cell-" + joined.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_.-]", "-");
	}

}
