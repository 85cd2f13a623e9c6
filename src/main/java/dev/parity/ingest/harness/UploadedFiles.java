package dev.parity.ingest.harness;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The files of one upload with its zips expanded, once: detection and the import read the
 * same entries (each parsed at most once), rather than each inflating the zips again.
 */
public final class UploadedFiles {

	private final List<InputFile> files;

	private final List<ParsedFile> parsed;

	private @Nullable Detection detection;

	private UploadedFiles(List<InputFile> files, JsonLimits limits) {
		this.files = List.copyOf(files);
		this.parsed = ParsedFile.of(this.files, new JsonBudget(limits));
	}

	/**
	 * The uploaded files with every zip replaced by its entries, read within the default
	 * limits.
	 * @throws ImportRejected when a zip is corrupt, empty, or inflates beyond the limits
	 * (naming it)
	 */
	public static UploadedFiles expand(List<InputFile> uploaded) {
		return expand(uploaded, JsonLimits.DEFAULT);
	}

	/**
	 * The uploaded files with every zip replaced by its entries; their JSON (and YAML) is
	 * read within {@code limits}, all files together.
	 * @throws ImportRejected when a zip is corrupt, empty, or inflates beyond the limits
	 * (naming it)
	 */
	public static UploadedFiles expand(List<InputFile> uploaded, JsonLimits limits) {
		return new UploadedFiles(InputFiles.expand(uploaded), limits);
	}

	/** The files, zips expanded. */
	public List<InputFile> files() {
		return files;
	}

	List<ParsedFile> parsed() {
		return parsed;
	}

	/** What the content looks like: detected once. */
	public synchronized Detection detection() {
		if (detection == null) {
			detection = FormatDetector.detect(this);
		}
		return detection;
	}

}
