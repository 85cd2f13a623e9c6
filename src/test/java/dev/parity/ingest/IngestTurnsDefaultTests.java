package dev.parity.ingest;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Without {@code parity.ingest.max-concurrent}, uploads leave one processor to the
 * series' updates and verdicts of the runs stored before them, and a one-processor server
 * still reads one upload at a time.
 */
class IngestTurnsDefaultTests {

	@Test
	void theTurnsLeaveOneProcessorToTheVerdicts() {
		assertThat(IngestTurns.byDefault(1)).isEqualTo(1);
		assertThat(IngestTurns.byDefault(2)).isEqualTo(1);
		assertThat(IngestTurns.byDefault(8)).isEqualTo(7);
	}

}
