package dev.parity.ingest.mapping;

/**
 * A new version of a saved format asked for by somebody who neither made the format nor
 * administers Parity: a format belongs to whoever saved its first version, so that nobody
 * changes silently how another team's files import.
 */
public class FormatNotYours extends RuntimeException {

	FormatNotYours(String name, String owner) {
		super("saved format " + name + " belongs to " + owner + ", who made it: only they (or an admin) add versions"
				+ " to it. Save your mapping under another name.");
	}

}
