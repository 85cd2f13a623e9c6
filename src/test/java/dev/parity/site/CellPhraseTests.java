package dev.parity.site;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The pair table's cell says a time's change by its sign, short enough for one line; the
 * words stay in its hover.
 */
class CellPhraseTests {

	@Test
	void aTimesChangeIsSaidByItsSign() {
		assertThat(value("+810 % more time (9.1× slower)").cellPhrase()).isEqualTo("+810 % (9.1× slower)");
		assertThat(value("27 % less time (1.37× faster)").cellPhrase()).isEqualTo("\u221227 % (1.37× faster)");
		assertThat(value("+3,450 % more time (35.5× slower)").cellPhrase()).isEqualTo("+3,450 % (35.5× slower)");
	}

	@Test
	void otherPhrasesAreSaidAsTheyAre() {
		assertThat(value("+6.4 %").cellPhrase()).isEqualTo("+6.4 %");
		assertThat(value("\u221227 % (1.37× better)").cellPhrase()).isEqualTo("\u221227 % (1.37× better)");
		assertThat(value("no change").cellPhrase()).isEqualTo("no change");
	}

	private static ComparisonPage.Value value(String phrase) {
		return new ComparisonPage.Value("ttft_s", "1", "2", "2.000", phrase, false, true, List.of(), List.of(),
				List.of(), List.of());
	}

}
