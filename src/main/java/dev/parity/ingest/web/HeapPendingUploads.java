package dev.parity.ingest.web;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.parity.ingest.harness.InputFile;

import org.springframework.stereotype.Component;

/**
 * Previews held in this server's memory: together at most an eighth of the heap (512 MiB at most), each for 30
 * minutes. A new preview that does not fit evicts the oldest; one larger than the whole space is refused.
 */
@Component
class HeapPendingUploads implements PendingUploads {

	static final Duration KEEP = Duration.ofMinutes(30);

	private static final SecureRandom RANDOM = new SecureRandom();

	private record Pending(String owner, List<InputFile> files, long bytes, Instant until) {
	}

	private final Map<String, Pending> pending = new LinkedHashMap<>();

	private final Clock clock;

	private final long maxBytes;

	private final Duration keep;

	private long total;

	HeapPendingUploads() {
		this(Clock.systemUTC(), budgetFor(Runtime.getRuntime().maxMemory()), KEEP);
	}

	HeapPendingUploads(Clock clock, long maxBytes, Duration keep) {
		this.clock = clock;
		this.maxBytes = maxBytes;
		this.keep = keep;
	}

	/** The space previews may take on a server whose heap can grow to {@code maxMemory} bytes. */
	static long budgetFor(long maxMemory) {
		return Math.min(512L << 20, maxMemory / 8);
	}

	@Override
	public synchronized String hold(String owner, List<InputFile> files) {
		evictExpired();
		long bytes = files.stream().mapToLong(f -> f.content().length).sum();
		if (bytes > maxBytes) {
			throw new TooLarge("the files (" + mebibytes(bytes) + ") are more than this server holds for previews ("
					+ mebibytes(maxBytes) + "): upload fewer files at once, or store them through POST /api/runs/import");
		}
		Iterator<Map.Entry<String, Pending>> oldest = pending.entrySet().iterator();
		while (total + bytes > maxBytes && oldest.hasNext()) {
			total -= oldest.next().getValue().bytes();
			oldest.remove();
		}
		byte[] id = new byte[16];
		RANDOM.nextBytes(id);
		String token = HexFormat.of().formatHex(id);
		pending.put(token, new Pending(owner, List.copyOf(files), bytes, clock.instant().plus(keep)));
		total += bytes;
		return token;
	}

	@Override
	public synchronized Optional<List<InputFile>> files(String owner, String token) {
		evictExpired();
		Pending held = pending.get(token);
		return held == null || !held.owner().equals(owner) ? Optional.empty() : Optional.of(held.files());
	}

	@Override
	public synchronized void release(String token) {
		Pending held = pending.remove(token);
		if (held != null) {
			total -= held.bytes();
		}
	}

	/** The bytes held now, all previews together. */
	synchronized long heldBytes() {
		evictExpired();
		return total;
	}

	private void evictExpired() {
		Instant now = clock.instant();
		pending.entrySet().removeIf(entry -> {
			boolean expired = !entry.getValue().until().isAfter(now);
			if (expired) {
				total -= entry.getValue().bytes();
			}
			return expired;
		});
	}

	private static String mebibytes(long bytes) {
		return String.format("%,.1f MiB", bytes / (1024.0 * 1024));
	}

}
