package dev.parity.compare;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The front of a small sweep worked out by hand: interactivity (tokens/s per user)
 * against throughput (tokens/s).
 *
 * <pre>
 * cell  interactivity throughput
 * c1    100           100        on the front
 * c2     80           180        on the front
 * c4     60           300        on the front
 * c8     30           400        on the front
 * c16    20           380        dominated by c8 (less of both)
 * c32    50           500        greyed: would dominate c8, yet is never on the front and dominates nothing
 * </pre>
 */
class ParetoFrontTests {

	private static final List<ParetoFront.Point> SWEEP = List.of(point("c1", 100, 100), point("c2", 80, 180),
			point("c4", 60, 300), point("c8", 30, 400), point("c16", 20, 380),
			new ParetoFront.Point("c32", "c32", 50, 500, true, List.of("failures")));

	@Test
	void theFrontIsTheNonDominatedCleanPointsByRisingInteractivity() {
		assertThat(ParetoFront.of(SWEEP)).extracting(ParetoFront.Point::anchor).containsExactly("c8", "c4", "c2", "c1");
	}

	@Test
	void aGreyedPointIsNeverOnTheFrontEvenWhenItBeatsEveryOther() {
		ParetoFront.Point best = new ParetoFront.Point("greyed", "greyed", 1000, 1000, true, List.of("runaway"));
		List<ParetoFront.Point> front = ParetoFront.of(List.of(best, point("a", 10, 20), point("b", 20, 10)));

		assertThat(front).extracting(ParetoFront.Point::anchor).containsExactly("a", "b");
		assertThat(ParetoFront.of(List.of(best))).isEmpty();
	}

	@Test
	void throughputBetweenFrontPointsIsOnTheStraightLine() {
		List<ParetoFront.Point> front = ParetoFront.of(SWEEP);

		// 400 + (45 − 30) / (60 − 30) × (300 − 400) = 350; 300 + (70 − 60) / (80 − 60) ×
		// (180 − 300) = 240
		assertThat(ParetoFront.throughputAt(front, 45))
			.hasValueSatisfying(v -> assertThat(v).isCloseTo(350, within(1e-9)));
		assertThat(ParetoFront.throughputAt(front, 70))
			.hasValueSatisfying(v -> assertThat(v).isCloseTo(240, within(1e-9)));
		assertThat(ParetoFront.throughputAt(front, 60)).contains(300.0);
		assertThat(ParetoFront.throughputAt(front, 29.9)).isEmpty();
		assertThat(ParetoFront.throughputAt(front, 100.1)).isEmpty();
	}

	@Test
	void theRatioAtEqualInteractivityIsTakenWhereBothFrontsExist() {
		List<ParetoFront.Point> contender = List.of(point("k1", 40, 500), point("k2", 70, 330), point("k3", 120, 150));

		ParetoFront.EqualInteractivity equal = ParetoFront.ratio(ParetoFront.of(SWEEP), ParetoFront.of(contender))
			.orElseThrow();

		// baseline spans 30–100, contender 40–120: both between 40 and 100
		assertThat(equal.low()).isEqualTo(40);
		assertThat(equal.high()).isEqualTo(100);
		assertThat(equal.points()).extracting(ParetoFront.Ratio::interactivity)
			.containsExactly(40.0, 60.0, 70.0, 80.0, 100.0);
		// at 40: baseline 400 − 10/30 × 100 = 366.67, contender 500
		// at 60: baseline 300, contender 500 − 20/30 × 170 = 386.67
		// at 70: 240 and 330; at 80: 180 and 330 − 10/50 × 180 = 294; at 100: 100 and 330
		// − 30/50 × 180 = 222
		double[] baseline = { 1100.0 / 3, 300, 240, 180, 100 };
		double[] contenders = { 500, 1160.0 / 3, 330, 294, 222 };
		for (int i = 0; i < 5; i++) {
			ParetoFront.Ratio ratio = equal.points().get(i);
			assertThat(ratio.baseline()).isCloseTo(baseline[i], within(1e-9));
			assertThat(ratio.contender()).isCloseTo(contenders[i], within(1e-9));
			assertThat(ratio.ratio()).isCloseTo(contenders[i] / baseline[i], within(1e-9));
		}
		assertThat(equal.lowestRatio()).isCloseTo(1160.0 / 900, within(1e-9));
		assertThat(equal.highestRatio()).isCloseTo(2.22, within(1e-9));
	}

	@Test
	void noRatioWhenTheFrontsShareNoInteractivityOrOneIsEmpty() {
		List<ParetoFront.Point> slow = ParetoFront.of(List.of(point("s", 10, 900), point("t", 20, 800)));
		List<ParetoFront.Point> fast = ParetoFront.of(List.of(point("f", 50, 300), point("g", 90, 100)));

		assertThat(ParetoFront.ratio(slow, fast)).isEmpty();
		assertThat(ParetoFront.ratio(slow, List.of())).isEmpty();
	}

	private static ParetoFront.Point point(String anchor, double interactivity, double throughput) {
		return new ParetoFront.Point(anchor, anchor, interactivity, throughput, false, List.of());
	}

}
