package dev.parity.history;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Alerts on simulated 40-night series of a 200-cell grid (20 prompt lengths × 10
 * concurrencies, decode throughput and TTFT per cell), analysed night after night as they
 * grow, with fixed seeds: quiet on noise alone, the shift in every cell found at its
 * night and nowhere else, one cell's drop in 200 found at its night.
 */
class AlertSimulationTests {

	private static final AlertSimulation.Grid GRID = new AlertSimulation.Grid(20, 10);

	/** Night 25, counted from 0. */
	private static final int NIGHT_25 = 24;

	@Test
	void runToRunNoiseOfFivePercentRaisesNoAlert() {
		assertThat(AlertSimulation.run(8, GRID, 40, 0.05, List.of())).isEmpty();
		assertThat(AlertSimulation.run(26, GRID, 40, 0.05, List.of())).isEmpty();
	}

	@Test
	void runToRunNoiseOfEightPercentRaisesNoAlert() {
		assertThat(AlertSimulation.run(8, GRID, 40, 0.08, List.of())).isEmpty();
		assertThat(AlertSimulation.run(40, GRID, 40, 0.08, List.of())).isEmpty();
	}

	@Test
	void aShiftInEveryCellIsOneAlertAtItsNight() {
		// TTFT +12 %, decode −10.7 % from night 25, at 5 % noise.
		List<AlertSimulation.Raised> alerts = AlertSimulation.run(2, GRID, 40, 0.05,
				List.of(new AlertSimulation.Shift(NIGHT_25, List.of(), 1 / 1.12, 1.12)));

		assertThat(alerts).hasSize(1);
		assertThat(alerts.get(0).night()).isEqualTo(NIGHT_25);
		assertThat(alerts.get(0).withdrawn()).isFalse();
		assertThat(alerts.get(0).changes()).isGreaterThan(300);
	}

	@Test
	void oneCellsDropAmongTwoHundredIsFoundAtItsNight() {
		// Decode −9 % in one cell from night 25, at 1.5 % noise.
		List<AlertSimulation.Raised> alerts = AlertSimulation.run(5, GRID, 40, 0.015,
				List.of(new AlertSimulation.Shift(NIGHT_25, List.of(137), 0.91, 1.0)));

		assertThat(alerts).singleElement().satisfies(alert -> {
			assertThat(alert.night()).isEqualTo(NIGHT_25);
			assertThat(alert.changes()).isEqualTo(1);
			assertThat(alert.withdrawn()).isFalse();
		});
	}

}
