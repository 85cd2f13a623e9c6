package dev.parity.compare;

import java.util.List;
import java.util.Locale;

import org.jspecify.annotations.Nullable;

/**
 * A side's checkpoint as people quote it, read from the provenance diff: the short
 * commit, with the requested revision when it says something the commit does not
 * ("main").
 */
final class Checkpoints {

	private Checkpoints() {
	}

	static String describe(List<ProvenanceDifference> differences, String side) {
		String commit = value(differences, "model.commit", side);
		String revision = value(differences, "model.revision", side);
		if (commit == null) {
			return revision == null ? "no revision" : "'" + revision + "', unresolved";
		}
		String shortCommit = commit.substring(0, 7);
		return revision == null || commit.startsWith(revision.toLowerCase(Locale.ROOT)) ? shortCommit
				: shortCommit + " ('" + revision + "')";
	}

	/** The side's commit in 7 characters, or its revision when it recorded no commit. */
	static String commit(List<ProvenanceDifference> differences, String side) {
		String commit = value(differences, "model.commit", side);
		String revision = value(differences, "model.revision", side);
		return commit != null ? commit.substring(0, 7) : revision != null ? "'" + revision + "'" : "unknown";
	}

	private static @Nullable String value(List<ProvenanceDifference> differences, String field, String side) {
		return differences.stream()
			.filter(row -> row.field().equals(field))
			.findFirst()
			.map(row -> Flag.BASELINE.equals(side) ? row.baseline() : row.contender())
			.orElse(null);
	}

}
