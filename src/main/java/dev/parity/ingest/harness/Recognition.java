package dev.parity.ingest.harness;

/**
 * How surely an importer recognises a set of files, and why.
 *
 * @param certainty sure, possible or none
 * @param reason what in the content was recognised, for the explanation
 */
record Recognition(Certainty certainty, String reason) {

	enum Certainty {

		SURE, POSSIBLE, NONE

	}

	static Recognition none() {
		return new Recognition(Certainty.NONE, "");
	}

	boolean sure() {
		return certainty == Certainty.SURE;
	}

	boolean possible() {
		return certainty == Certainty.POSSIBLE;
	}

}
