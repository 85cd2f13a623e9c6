package dev.parity.ingest.web;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;

import dev.parity.ingest.harness.InputFile;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Previews are held in bounded space (a fraction of the heap) and for a bounded time, the oldest going first. */
class HeapPendingUploadsTests {

	private final MovableClock clock = new MovableClock();

	private final HeapPendingUploads pending = new HeapPendingUploads(clock, 1_000, Duration.ofMinutes(30));

	@Test
	void aNewPreviewBeyondTheSpaceEvictsTheOldest() {
		String first = pending.hold("ada", files(400));
		String second = pending.hold("bob", files(400));
		String third = pending.hold("ada", files(400));

		assertThat(pending.files("ada", first)).isEmpty();
		assertThat(pending.files("bob", second)).isPresent();
		assertThat(pending.files("ada", third)).isPresent();
		assertThat(pending.heldBytes()).isEqualTo(800);
	}

	@Test
	void aPreviewLargerThanAllTheSpaceIsRefusedAndEvictsNothing() {
		String held = pending.hold("ada", files(600));

		assertThatThrownBy(() -> pending.hold("bob", files(1_001))).isInstanceOf(PendingUploads.TooLarge.class)
			.hasMessageContaining("more than this server holds for previews");
		assertThat(pending.files("ada", held)).isPresent();
	}

	@Test
	void eachPreviewExpiresOnItsOwn() {
		String early = pending.hold("ada", files(100));
		clock.advance(Duration.ofMinutes(20));
		String later = pending.hold("ada", files(100));
		clock.advance(Duration.ofMinutes(10));

		assertThat(pending.files("ada", early)).isEmpty();
		assertThat(pending.files("ada", later)).isPresent();
		assertThat(pending.heldBytes()).isEqualTo(100);
		clock.advance(Duration.ofMinutes(20));
		assertThat(pending.files("ada", later)).isEmpty();
		assertThat(pending.heldBytes()).isZero();
	}

	@Test
	void anotherUsersTokenGivesNothing() {
		String token = pending.hold("ada", files(10));

		assertThat(pending.files("bob", token)).isEmpty();
	}

	@Test
	void theSpaceIsAFractionOfTheHeap() {
		// Three 120 MB previews on a 1 GiB heap: one is held at a time, not 360 MB.
		assertThat(HeapPendingUploads.budgetFor(1L << 30)).isEqualTo(128L << 20);
		assertThat(HeapPendingUploads.budgetFor(16L << 30)).isEqualTo(512L << 20);
		HeapPendingUploads onOneGibibyte = new HeapPendingUploads(clock, HeapPendingUploads.budgetFor(1L << 30),
				HeapPendingUploads.KEEP);
		List<InputFile> preview = files(120_000_000);
		for (int i = 0; i < 3; i++) {
			onOneGibibyte.hold("ada", preview);
		}
		assertThat(onOneGibibyte.heldBytes()).isEqualTo(120_000_000);
	}

	private static List<InputFile> files(int bytes) {
		return List.of(new InputFile("run.json", new byte[bytes]));
	}

	private static final class MovableClock extends Clock {

		private Instant now = Instant.parse("2026-12-01T12:00:00Z");

		void advance(Duration duration) {
			now = now.plus(duration);
		}

		@Override
		public ZoneId getZone() {
			return ZoneOffset.UTC;
		}

		@Override
		public Clock withZone(ZoneId zone) {
			return this;
		}

		@Override
		public Instant instant() {
			return now;
		}

	}

}
