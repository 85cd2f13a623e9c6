package dev.parity.ingest.harness;

import java.util.ArrayList;
import java.util.List;

import dev.parity.web.Problem;
import dev.parity.ingest.RunDocumentValidator;
import dev.parity.run.RunDocumentReader;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads uploaded files in a given format (usually the one {@link FormatDetector} found,
 * or the one the user picked) into a {@link HarnessImport}.
 */
public final class HarnessImporters {

	private static final List<HarnessImporter> ALL = List.of(new NativeDocument(), new VllmBenchServe(),
			new VllmSweep(), new SglangBenchServing(), new AiperfProfileExport(), new AiperfRecords(),
			new AiperfSweep(), new LlmperfSummary(), new LlmperfResponses(), new LlamaBenchy(), new GuidellmReport(),
			new AiperfCsv(), new GenaiPerfCsv(), new LlamaBenchyTable(), new LlamaBenchyProgress(), new InferencePerf(),
			new LlmdBenchmarkReport(), new MlperfInference(), PublishedTable.csv(), PublishedTable.markdown());

	private HarnessImporters() {
	}

	/**
	 * The import with placeholders for the provenance the uploader adds where the files
	 * state none (title, system, model repository, engine, harness, workload): the rest
	 * is what the files gave.
	 */
	private static ObjectNode withPlaceholders(ObjectNode imported) {
		ObjectNode document = imported.deepCopy();
		if (!document.has("format")) {
			document.put("format", RunDocumentReader.FORMAT);
		}
		if (!document.has("title")) {
			document.put("title", "import");
		}
		if (!document.has("role")) {
			document.put("role", "measured");
		}
		named(document, "system", "name");
		named(document, "model", "repo");
		named(document, "engine", "name");
		named(document, "harness", "name");
		if (!document.has("workload")) {
			document.putObject("workload");
		}
		return document;
	}

	private static void named(ObjectNode document, String group, String field) {
		if (!document.has(group)) {
			document.putObject(group);
		}
		if (document.get(group) instanceof ObjectNode object && !object.has(field)) {
			object.put(field, "uploader");
		}
	}

	/**
	 * The import with the environment that environment files beside the harness's own
	 * give, if any.
	 */
	private static HarnessImport withEnvironment(HarnessImport imported, List<ParsedFile> files) {
		EnvironmentFiles.Found found = EnvironmentFiles.read(files);
		if (found.environment() == null || imported.cellsDocument().has("environment")) {
			return imported;
		}
		ObjectNode document = imported.cellsDocument().deepCopy();
		document.set("environment", found.environment());
		List<String> notes = new ArrayList<>(imported.notes());
		notes.addAll(found.notes());
		return new HarnessImport(document, notes, imported.countReadings());
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
	 * @param mapping the column mapping of a published table; {@code null} for harness
	 * outputs
	 * @throws ImportRejected naming the file and the problem (and the line or JSON path
	 * when known)
	 */
	public static HarnessImport read(HarnessFormat format, List<InputFile> files, @Nullable TableMapping mapping)
			throws ImportRejected {
		return read(format, UploadedFiles.expand(files), mapping);
	}

	/**
	 * Reads files already expanded (the ones detection looked at) as the given format.
	 * @param mapping the column mapping of a published table; {@code null} for harness
	 * outputs
	 * @throws ImportRejected naming the file and the problem (and the line or JSON path
	 * when known)
	 */
	public static HarnessImport read(HarnessFormat format, UploadedFiles files, @Nullable TableMapping mapping)
			throws ImportRejected {
		if (format.needsMapping() && mapping == null) {
			throw new ImportRejected("a published table needs a column mapping: which column is the prompt length,"
					+ " which the concurrency, and which metric (in which unit) each other column holds");
		}
		List<InputFile> expanded = files.files();
		HarnessImport imported = withEnvironment(of(format).read(files.parsed(), mapping), files.parsed());
		// What the files give must be valid as they give it (a negative token count, a
		// field name with a NUL, a
		// number written as 1e999): say so here, naming the files, rather than leave it
		// to the validation of a
		// document the user never wrote. A run document is the user's own: its validation
		// names each place.
		if (format != HarnessFormat.NATIVE) {
			List<Problem> problems = RunDocumentValidator.validate(withPlaceholders(imported.cellsDocument()));
			if (!problems.isEmpty()) {
				String names = RunDocumentValidator
					.printable(String.join(", ", expanded.stream().map(InputFile::name).limit(3).toList()));
				throw new ImportRejected(names + ": cannot be imported as it is: " + problems.get(0)
						+ (problems.size() > 1 ? " (and " + (problems.size() - 1) + " more)" : ""));
			}
		}
		return imported;
	}

}
