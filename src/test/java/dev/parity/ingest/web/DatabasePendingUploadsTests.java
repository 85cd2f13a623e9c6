package dev.parity.ingest.web;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;

import dev.parity.ParityTest;
import dev.parity.ingest.harness.InputFile;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.PlatformTransactionManager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Previews are held in the database, in bounded space (a fraction of the heap) and for a
 * bounded time, the oldest going first; expired ones are deleted.
 */
@ParityTest
class DatabasePendingUploadsTests {

	@Autowired
	JdbcClient jdbc;

	@Autowired
	PlatformTransactionManager transactions;

	private final MovableClock clock = new MovableClock();

	private DatabasePendingUploads pending;

	@BeforeEach
	void aSpaceOfOneThousandBytes() {
		// The space is shared by everything that holds previews: these tests start with
		// none held.
		jdbc.sql("delete from pending_upload").update();
		pending = new DatabasePendingUploads(jdbc, transactions, clock, 1_000, Duration.ofMinutes(30));
	}

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
	void eachPreviewExpiresOnItsOwnAndExpiredOnesAreDeleted() {
		String early = pending.hold("ada", files(100));
		clock.advance(Duration.ofMinutes(20));
		String later = pending.hold("ada", files(100));
		clock.advance(Duration.ofMinutes(10));

		assertThat(pending.files("ada", early)).isEmpty();
		assertThat(pending.files("ada", later)).isPresent();
		assertThat(pending.heldBytes()).isEqualTo(100);
		clock.advance(Duration.ofMinutes(20));
		assertThat(pending.files("ada", later)).isEmpty();
		pending.deleteExpired();
		assertThat(jdbc.sql("select count(*) from pending_upload_file").query(Long.class).single()).isZero();
		assertThat(pending.heldBytes()).isZero();
	}

	@Test
	void anotherUsersTokenGivesNothing() {
		String token = pending.hold("ada", files(10));

		assertThat(pending.files("bob", token)).isEmpty();
	}

	@Test
	void filesComeBackAsTheyWereInTheirOrderWhateverTheirNames() {
		List<InputFile> files = List.of(new InputFile("sweep/run=0.json", new byte[] { 0, 1, 2 }),
				new InputFile("odd\u0000name\ud800.txt", "text".getBytes(StandardCharsets.UTF_8)),
				new InputFile("empty", new byte[0]));
		String token = pending.hold("ada", files);

		assertThat(pending.files("ada", token)).contains(files);
		pending.release(token);
		assertThat(pending.files("ada", token)).isEmpty();
	}

	@Test
	void theSpaceIsAFractionOfTheHeap() {
		// Three 120 MB previews on a 1 GiB heap: one is held at a time, not 360 MB (here
		// at a thousandth of the scale).
		assertThat(DatabasePendingUploads.budgetFor(1L << 30)).isEqualTo(128L << 20);
		assertThat(DatabasePendingUploads.budgetFor(16L << 30)).isEqualTo(512L << 20);
		DatabasePendingUploads onOneMebibyte = new DatabasePendingUploads(jdbc, transactions, clock,
				DatabasePendingUploads.budgetFor(1L << 30) / 1024, DatabasePendingUploads.KEEP);
		List<InputFile> preview = files(120_000);
		for (int i = 0; i < 3; i++) {
			onOneMebibyte.hold("ada", preview);
		}
		assertThat(onOneMebibyte.heldBytes()).isEqualTo(120_000);
	}

	private static List<InputFile> files(int bytes) {
		return List.of(new InputFile("run.json", new byte[bytes]));
	}

	private static final class MovableClock extends Clock {

		private Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);

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
