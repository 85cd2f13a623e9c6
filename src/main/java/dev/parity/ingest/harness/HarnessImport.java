package dev.parity.ingest.harness;

import java.util.List;

import tools.jackson.databind.node.ObjectNode;

/**
 * What an importer made of a harness's files: a partial {@code benchmark-run/1} document
 * holding complete cells and only the provenance the files state, plus what was chosen or
 * could not be known. The web layer merges the uploader's provenance over the document
 * and validates the result like any document.
 *
 * @param cellsDocument the partial document: {@code cells}, and e.g. {@code harness},
 * {@code model.repo}, {@code workload}, {@code recorded_at} where the files state them
 * @param notes what was chosen or could not be known, in words for the preview
 * @param countReadings the request counts of cells whose file states several, with the
 * chosen one
 */
public record HarnessImport(ObjectNode cellsDocument, List<String> notes, List<CountReading> countReadings) {

	public HarnessImport {
		notes = List.copyOf(notes);
		countReadings = List.copyOf(countReadings);
	}

	public HarnessImport(ObjectNode cellsDocument, List<String> notes) {
		this(cellsDocument, notes, List.of());
	}

}
