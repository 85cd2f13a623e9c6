package dev.parity.ingest.web;

import java.security.SecureRandom;
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
 * Files uploaded for a preview, held in memory (never in the database) until the uploader stores the
 * run or leaves: so that correcting the provenance does not mean uploading the files again. Bounded in
 * time and total size; the oldest go first.
 */
@Component
class PendingUploads {

	private static final Duration KEEP = Duration.ofMinutes(30);

	private static final long MAX_BYTES = 512L * 1024 * 1024;

	private static final SecureRandom RANDOM = new SecureRandom();

	private record Pending(String owner, List<InputFile> files, long bytes, Instant at) {
	}

	private final Map<String, Pending> pending = new LinkedHashMap<>();

	private long total;

	synchronized String hold(String owner, List<InputFile> files) {
		evictExpired();
		long bytes = files.stream().mapToLong(f -> f.content().length).sum();
		Iterator<Map.Entry<String, Pending>> oldest = pending.entrySet().iterator();
		while (total + bytes > MAX_BYTES && oldest.hasNext()) {
			total -= oldest.next().getValue().bytes();
			oldest.remove();
		}
		byte[] id = new byte[16];
		RANDOM.nextBytes(id);
		String token = HexFormat.of().formatHex(id);
		pending.put(token, new Pending(owner, List.copyOf(files), bytes, Instant.now()));
		total += bytes;
		return token;
	}

	synchronized Optional<List<InputFile>> files(String owner, String token) {
		evictExpired();
		Pending held = pending.get(token);
		return held == null || !held.owner().equals(owner) ? Optional.empty() : Optional.of(held.files());
	}

	synchronized void release(String token) {
		Pending held = pending.remove(token);
		if (held != null) {
			total -= held.bytes();
		}
	}

	private void evictExpired() {
		Instant horizon = Instant.now().minus(KEEP);
		pending.entrySet().removeIf(entry -> {
			boolean expired = entry.getValue().at().isBefore(horizon);
			if (expired) {
				total -= entry.getValue().bytes();
			}
			return expired;
		});
	}

}
