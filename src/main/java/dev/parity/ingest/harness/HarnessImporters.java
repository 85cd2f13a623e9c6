package dev.parity.ingest.harness;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * Reads uploaded files in a given format (usually the one {@link FormatDetector} found, or the
 * one the user picked) into a {@link HarnessImport}.
 */
public final class HarnessImporters {

	private static final List<HarnessImporter> ALL = List.of(new NativeDocument(), new VllmBenchServe(),
			new VllmSweep(), new SglangBenchServing(), new AiperfProfileExport(), new AiperfRecords(), new AiperfSweep(),
			new LlmperfSummary(), new LlmperfResponses(), new LlamaBenchy(), new GuidellmReport(),
			PublishedTable.csv(), PublishedTable.markdown());

	private HarnessImporters() {
	}

	static List<HarnessImporter> all() {
		return ALL;
	}

	static HarnessImporter of(HarnessFormat format) {
		return ALL.stream()
			.filter(importer -> importer.format() == format)
			.findFirst()
			.orElseThrow(() -> new IllegalStateException("no importer for " + format));
	}

	/**
	 * Reads the files (zips are expanded) as the given format.
	 * @param mapping the column mapping of a published table; {@code null} for harness outputs
	 * @throws ImportRejected naming the file and the problem (and the line or JSON path when known)
	 */
	public static HarnessImport read(HarnessFormat format, List<InputFile> files, @Nullable TableMapping mapping)
			throws ImportRejected {
		if (format.needsMapping() && mapping == null) {
			throw new ImportRejected("a published table needs a column mapping: which column is the prompt length,"
					+ " which the concurrency, and which metric (in which unit) each other column holds");
		}
		return of(format).read(ParsedFile.of(InputFiles.expand(files)), mapping);
	}

}
