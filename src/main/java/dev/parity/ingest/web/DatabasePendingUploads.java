package dev.parity.ingest.web;

import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

import dev.parity.ingest.harness.InputFile;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Previews held in PostgreSQL, so that the instance that stores a run need not be the one
 * that showed its preview: together at most an eighth of the heap (512 MiB at most; an
 * instance loads a whole preview to show or store it), each for 30 minutes. A new preview
 * that does not fit evicts the oldest; one larger than the whole space is refused.
 * Expired previews are deleted whenever one is held, and every five minutes.
 */
@Component
class DatabasePendingUploads implements PendingUploads {

	static final Duration KEEP = Duration.ofMinutes(30);

	/**
	 * The advisory lock that makes holding previews one at a time across instances (the
	 * space is shared).
	 */
	private static final long HOLDING = 0x7061_7269_7479_5055L;

	private static final SecureRandom RANDOM = new SecureRandom();

	private final JdbcClient jdbc;

	private final TransactionTemplate transaction;

	private final Clock clock;

	private final long maxBytes;

	private final Duration keep;

	@Autowired
	DatabasePendingUploads(JdbcClient jdbc, PlatformTransactionManager transactions) {
		this(jdbc, transactions, Clock.systemUTC(), budgetFor(Runtime.getRuntime().maxMemory()), KEEP);
	}

	DatabasePendingUploads(JdbcClient jdbc, PlatformTransactionManager transactions, Clock clock, long maxBytes,
			Duration keep) {
		this.jdbc = jdbc;
		this.transaction = new TransactionTemplate(transactions);
		this.clock = clock;
		this.maxBytes = maxBytes;
		this.keep = keep;
	}

	/**
	 * The space previews may take on a server whose heap can grow to {@code maxMemory}
	 * bytes.
	 */
	static long budgetFor(long maxMemory) {
		return Math.min(512L << 20, maxMemory / 8);
	}

	@Override
	public String hold(String owner, List<InputFile> files) {
		long bytes = files.stream().mapToLong(f -> f.content().length).sum();
		if (bytes > maxBytes) {
			throw new TooLarge("the files (" + mebibytes(bytes) + ") are more than this server holds for previews ("
					+ mebibytes(maxBytes)
					+ "): upload fewer files at once, or store them through POST /api/runs/import");
		}
		byte[] id = new byte[16];
		RANDOM.nextBytes(id);
		String token = HexFormat.of().formatHex(id);
		Instant now = clock.instant();
		transaction.executeWithoutResult(status -> {
			jdbc.sql("select pg_advisory_xact_lock(?)").param(HOLDING).query().singleRow();
			deleteExpired(now);
			long held = heldNow();
			List<Held> oldestFirst = jdbc.sql("select token, bytes from pending_upload order by seq")
				.query((rs, row) -> new Held(rs.getString("token"), rs.getLong("bytes")))
				.list();
			for (int i = 0; held + bytes > maxBytes && i < oldestFirst.size(); i++) {
				release(oldestFirst.get(i).token());
				held -= oldestFirst.get(i).bytes();
			}
			jdbc.sql("insert into pending_upload (token, owner, bytes, created_at, expires_at) values (?, ?, ?, ?, ?)")
				.params(token, owner, bytes, Timestamp.from(now), Timestamp.from(now.plus(keep)))
				.update();
			for (int i = 0; i < files.size(); i++) {
				jdbc.sql("insert into pending_upload_file (token, position, name, content) values (?, ?, ?, ?)")
					.params(token, i, utf16(files.get(i).name()), files.get(i).content())
					.update();
			}
		});
		return token;
	}

	private record Held(String token, long bytes) {
	}

	@Override
	public Optional<List<InputFile>> files(String owner, String token) {
		boolean held = jdbc.sql("select count(*) from pending_upload where token = ? and owner = ? and expires_at > ?")
			.params(token, owner, Timestamp.from(clock.instant()))
			.query(Long.class)
			.single() > 0;
		if (!held) {
			return Optional.empty();
		}
		List<InputFile> files = jdbc
			.sql("select name, content from pending_upload_file where token = ? order by position")
			.param(token)
			.query((rs, row) -> new InputFile(fromUtf16(rs.getBytes("name")), rs.getBytes("content")))
			.list();
		return Optional.of(files);
	}

	@Override
	public void release(String token) {
		jdbc.sql("delete from pending_upload where token = ?").param(token).update();
	}

	/** Deletes the previews that have expired, whichever instance held them. */
	@Scheduled(fixedDelayString = "PT5M", initialDelayString = "PT5M")
	void deleteExpired() {
		deleteExpired(clock.instant());
	}

	/** The bytes held now, all previews together. */
	long heldBytes() {
		deleteExpired(clock.instant());
		return heldNow();
	}

	private void deleteExpired(Instant now) {
		jdbc.sql("delete from pending_upload where expires_at <= ?").param(Timestamp.from(now)).update();
	}

	private long heldNow() {
		return jdbc.sql("select coalesce(sum(bytes), 0) from pending_upload").query(Long.class).single();
	}

	private static byte[] utf16(String name) {
		ByteBuffer units = ByteBuffer.allocate(2 * name.length());
		units.asCharBuffer().put(name);
		return units.array();
	}

	private static String fromUtf16(byte[] units) {
		return ByteBuffer.wrap(units).asCharBuffer().toString();
	}

	private static String mebibytes(long bytes) {
		return String.format("%,.1f MiB", bytes / (1024.0 * 1024));
	}

}
