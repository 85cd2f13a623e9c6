package dev.parity.history;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

import dev.parity.run.Provenance;
import dev.parity.run.WorkloadFingerprint;

/**
 * What the runs of a series share: system, model, engine, harness, the declared workload
 * (not the grid: grids grow) and the branch. The id is derived from the key, so the same
 * key always names the same series.
 *
 * @param workload the declared workload, canonically serialised
 */
public record SeriesKey(String system, String model, String engine, String harness, String branch, String workload) {

	public static SeriesKey of(Provenance provenance, String defaultBranch) {
		String branch = provenance.branch();
		return new SeriesKey(provenance.system().name(), provenance.model().repo(), provenance.engine().name(),
				provenance.harness().name(), branch == null ? defaultBranch : branch,
				WorkloadFingerprint.declared(provenance.workload()));
	}

	/**
	 * The first 12 hexadecimal characters of the SHA-256 of the key's fields, each
	 * length-prefixed.
	 */
	public String id() {
		StringBuilder canonical = new StringBuilder();
		for (String field : new String[] { system, model, engine, harness, branch, workload }) {
			canonical.append(field.length()).append(':').append(field).append('\n');
		}
		try {
			byte[] hash = MessageDigest.getInstance("SHA-256")
				.digest(canonical.toString().getBytes(StandardCharsets.UTF_8));
			return HexFormat.of().formatHex(hash).substring(0, 12);
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
