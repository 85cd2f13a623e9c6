package dev.parity.run;

import java.time.Instant;
import java.util.List;

/**
 * A stored run: its document, its permanent id and when and by whom it was uploaded.
 * Immutable.
 *
 * @param id the permanent id
 * @param document what the run says
 * @param workloadFingerprint see {@link WorkloadFingerprint}
 * @param uploadedAt when it was stored
 * @param uploadedBy who stored it
 * @param files the uploaded files, without their content
 */
public record Run(RunId id, RunDocument document, String workloadFingerprint, Instant uploadedAt, String uploadedBy,
		List<RunFile> files) {

	public String title() {
		return document.title();
	}

	public Role role() {
		return document.role();
	}

	public Provenance provenance() {
		return document.provenance();
	}

	public List<Cell> cells() {
		return document.cells();
	}

	public String url() {
		return "/runs/" + id;
	}

	/** An uploaded file, as stored byte for byte. */
	public record RunFile(int position, String fileName, String mediaType, String sha256, long sizeBytes) {
	}

}
