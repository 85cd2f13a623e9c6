package dev.parity.stats;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The seed of a resampling, derived from what it resamples (run ids, anchor, metric,
 * statistic) and nothing else, so that the same comparison gives the same interval on
 * every load, on every server, under any other setting.
 */
public final class Seed {

	/**
	 * One digest a thread, reset by each use: a comparison asks for a seed per cell ×
	 * metric, and looking the algorithm up costs more than hashing the few bytes.
	 */
	private static final ThreadLocal<MessageDigest> DIGEST = ThreadLocal.withInitial(() -> {
		try {
			return MessageDigest.getInstance("SHA-256");
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("every Java has SHA-256", ex);
		}
	});

	private Seed() {
	}

	/**
	 * The first 8 bytes of the SHA-256 of the parts, joined by a character none of them
	 * contains.
	 */
	public static long of(String... parts) {
		MessageDigest sha256 = DIGEST.get();
		sha256.reset();
		byte[] digest = sha256.digest(String.join("\u001f", parts).getBytes(StandardCharsets.UTF_8));
		long seed = 0;
		for (int i = 0; i < 8; i++) {
			seed = (seed << 8) | (digest[i] & 0xff);
		}
		return seed;
	}

}
