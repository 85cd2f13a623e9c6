package dev.parity.ingest.harness;

/**
 * What one file is to one importer, judged from its content.
 */
enum FileRole {

	/** The format's own file, recognised by distinctive keys. */
	OWN,

	/** Could be the format's file, but nothing distinctive says so. */
	OWN_PERHAPS,

	/**
	 * A file the importer reads along with its own (AIPerf records next to the summary).
	 */
	COMPANION,

	/**
	 * An artefact that travels with the format's files (a CSV, a plot, a log) and is
	 * skipped, with a note.
	 */
	IGNORABLE,

	/**
	 * A JSON-looking file that does not parse: the importer will reject it when reading.
	 */
	BROKEN,

	/** Something else: the files are not (only) this format. */
	FOREIGN

}
