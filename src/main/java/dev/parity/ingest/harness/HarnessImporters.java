package dev.parity.ingest.harness;

import java.util.List;

import dev.parity.ingest.Problem;
import dev.parity.ingest.RunDocumentValidator;
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
		List<InputFile> expanded = InputFiles.expand(files);
		HarnessImport imported = of(format).read(ParsedFile.of(expanded), mapping);
		// A file can hold what no run can: a field name with a NUL, a number written as 1e999. Say so here, naming
		// the file, rather than leave it to a validation of a document the user never wrote (the native format is
		// the user's own document: its validation names the place).
		List<Problem> unstorable = format == HarnessFormat.NATIVE ? List.of()
				: RunDocumentValidator.unstorable(imported.cellsDocument());
		if (!unstorable.isEmpty()) {
			String names = String.join(", ", expanded.stream().map(InputFile::name).limit(3).toList());
			throw new ImportRejected(RunDocumentValidator.printable(names) + ": holds a value that cannot be stored: "
					+ unstorable.get(0).message() + (unstorable.size() > 1 ? " (and " + (unstorable.size() - 1) + " more)" : ""));
		}
		return imported;
	}

}
