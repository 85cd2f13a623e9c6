package dev.parity.ingest;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import dev.parity.audit.AuditTrail;
import dev.parity.ingest.harness.CountReading;
import dev.parity.ingest.harness.Detection;
import dev.parity.ingest.harness.HarnessFormat;
import dev.parity.ingest.harness.HarnessImport;
import dev.parity.ingest.harness.HarnessImporters;
import dev.parity.ingest.harness.ImportRejected;
import dev.parity.ingest.harness.NotABenchmark;
import dev.parity.ingest.harness.ImportTooLarge;
import dev.parity.ingest.harness.InputFile;
import dev.parity.ingest.harness.TableMapping;
import dev.parity.ingest.harness.UploadedFiles;
import dev.parity.ingest.mapping.MappedImport;
import dev.parity.ingest.mapping.SavedFormat;
import dev.parity.ingest.mapping.SavedFormats;
import dev.parity.run.RunDocument;
import dev.parity.run.RunDocumentReader;
import dev.parity.run.RunWriter;
import dev.parity.run.RunWriter.Stored;
import dev.parity.run.RunWriter.UploadedFile;
import dev.parity.run.Sha256;
import dev.parity.web.Problem;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Turns what a harness wrote (plus the provenance it never recorded) into a run: detect
 * the format from the content, read the files, lay the uploader's provenance over what
 * the files state, validate the result like any run document, and either preview it or
 * store it with the files kept verbatim.
 */
@Service
public class HarnessIngest {

	/** The provenance fields an uploader may give: the run document without its cells. */
	private static final Set<String> PROVENANCE_FIELDS = Set.of("title", "role", "source", "recorded_at", "system",
			"model", "engine", "harness", "workload", "metric_definitions", "caveats", "context", "environment");

	private final RunWriter runs;

	private final AuditTrail audit;

	private final JsonMapper json;

	private final DocumentLimits limits;

	private final SavedFormats savedFormats;

	private final UploadCounters counters;

	HarnessIngest(RunWriter runs, AuditTrail audit, JsonMapper json, DocumentLimits limits, SavedFormats savedFormats,
			UploadCounters counters) {
		this.counters = counters;
		this.limits = limits;
		this.savedFormats = savedFormats;
		this.runs = runs;
		this.audit = audit;
		this.json = json;
	}

	/**
	 * What an upload was understood as, before anything is stored.
	 *
	 * @param detection what the content looks like
	 * @param format the format read ({@code null} when detection was not certain and none
	 * was picked)
	 * @param notes what the importer chose or could not know
	 * @param countReadings competing request counts of a cell, with the chosen one
	 * @param fileProvenance the provenance the files themselves state (to pre-fill the
	 * form)
	 * @param document the merged run document ({@code null} when the files could not be
	 * read)
	 * @param problems what is wrong with the merged document (empty when it can be
	 * stored)
	 * @param run the document as read, when valid
	 * @param saved the saved format read (then {@code format} is {@code null}), picked or
	 * detected
	 */
	public record Preview(Detection detection, @Nullable HarnessFormat format, List<String> notes,
			List<CountReading> countReadings, @Nullable ObjectNode fileProvenance, @Nullable ObjectNode document,
			List<Problem> problems, @Nullable RunDocument run, @Nullable SavedFormat saved) {

		public Preview(Detection detection, @Nullable HarnessFormat format, List<String> notes,
				List<CountReading> countReadings, @Nullable ObjectNode fileProvenance, @Nullable ObjectNode document,
				List<Problem> problems, @Nullable RunDocument run) {
			this(detection, format, notes, countReadings, fileProvenance, document, problems, run, null);
		}

		/**
		 * The id of the format read: a built-in one's ({@code vllm}) or a saved one's
		 * ({@code lab-bench@2}).
		 */
		public @Nullable String formatId() {
			return saved != null ? saved.id() : format != null ? format.id() : null;
		}

		public boolean storable() {
			return run != null && problems.isEmpty();
		}
	}

	/**
	 * Reads and checks an upload without storing anything.
	 * @param format the format the user picked, or {@code null} to detect it
	 * @param provenance the uploader's provenance in the run-document shape (no cells);
	 * may be empty
	 */
	public Preview preview(List<InputFile> files, @Nullable HarnessFormat format, ObjectNode provenance,
			@Nullable TableMapping mapping) {
		return preview(files, format, null, provenance, mapping);
	}

	/**
	 * Reads and checks an upload without storing anything, with a built-in or a saved
	 * format (or neither, to detect).
	 * @param saved the saved format the user picked (with {@code format} {@code null}),
	 * or {@code null}
	 */
	public Preview preview(List<InputFile> files, @Nullable HarnessFormat format, @Nullable SavedFormat saved,
			ObjectNode provenance, @Nullable TableMapping mapping) {
		if (files.isEmpty() || files.stream().allMatch(f -> f.content().length == 0)) {
			throw new RunFileRejected("files", "no file was uploaded");
		}
		UploadedFiles expanded;
		try {
			expanded = UploadedFiles.expand(files, limits.jsonLimits());
		}
		catch (ImportRejected rejected) {
			return new Preview(new Detection(null, List.of(), rejected.getMessage()), format, List.of(), List.of(),
					null, null, List.of(new Problem("files", rejected.getMessage())), null);
		}
		return preview(expanded, format, saved, provenance, mapping);
	}

	/**
	 * Reads and checks an upload, its zips expanded already (once per request), without
	 * storing anything.
	 * @param format the format the user picked, or {@code null} to detect it
	 * @param provenance the uploader's provenance in the run-document shape (no cells);
	 * may be empty
	 */
	public Preview preview(UploadedFiles files, @Nullable HarnessFormat format, ObjectNode provenance,
			@Nullable TableMapping mapping) {
		return preview(files, format, null, provenance, mapping);
	}

	/**
	 * Reads and checks an upload, its zips expanded already, with a built-in or a saved
	 * format (or neither, to detect: saved formats are asked only when no built-in format
	 * could read the files).
	 */
	public Preview preview(UploadedFiles files, @Nullable HarnessFormat format, @Nullable SavedFormat saved,
			ObjectNode provenance, @Nullable TableMapping mapping) {
		try {
			return read(files, format, saved, provenance, mapping);
		}
		catch (ImportTooLarge tooLarge) {
			throw new UploadTooLarge("files", tooLarge.getMessage());
		}
	}

	private Preview read(UploadedFiles files, @Nullable HarnessFormat format, @Nullable SavedFormat saved,
			ObjectNode provenance, @Nullable TableMapping mapping) {
		Detection detection = files.detection();
		HarnessFormat chosen = format != null || saved != null ? format : detection.format();
		List<Problem> problems = new ArrayList<>();
		if (chosen == null && saved == null && detection.candidates().isEmpty()) {
			// A file of a known harness is never read by a saved format unasked: only
			// files nothing built in reads.
			List<SavedFormat> found = savedFormats.detect(files.files(), limits.jsonLimits());
			if (found.size() == 1) {
				saved = found.get(0);
				detection = new Detection(null, List.of(),
						"saved format " + saved.id() + ": every path its detect lists" + " is in the files");
			}
			else if (found.size() > 1) {
				problems.add(new Problem("format", "the files fit more than one saved format, pick one of "
						+ found.stream().map(SavedFormat::name).toList()));
				return new Preview(detection, null, List.of(), List.of(), null, null, problems, null);
			}
		}
		if (saved != null) {
			HarnessImport imported;
			try {
				imported = MappedImport.read(saved, files.files(), limits.jsonLimits());
			}
			catch (ImportTooLarge tooLarge) {
				throw tooLarge;
			}
			catch (ImportRejected rejected) {
				problems.add(new Problem("files", rejected.getMessage()));
				return new Preview(detection, null, List.of(), List.of(), null, null, problems, null, saved);
			}
			return previewOf(detection, null, saved, imported, provenance);
		}
		if (chosen == null && detection.candidates().isEmpty()) {
			List<String> notBenchmarks = NotABenchmark.of(files.files());
			if (!notBenchmarks.isEmpty()) {
				problems.add(new Problem("files", String.join("; ", notBenchmarks)));
				return new Preview(detection, null, List.of(), List.of(), null, null, problems, null);
			}
		}
		if (chosen == null) {
			problems.add(new Problem("format", "could not tell the format for certain: " + detection.explanation()
					+ (detection.candidates().isEmpty() ? ""
							: "; pick one of " + detection.candidates().stream().map(HarnessFormat::id).toList())));
			return new Preview(detection, null, List.of(), List.of(), null, null, problems, null);
		}
		HarnessImport imported;
		try {
			imported = HarnessImporters.read(chosen, files, mapping);
		}
		catch (ImportTooLarge tooLarge) {
			throw tooLarge;
		}
		catch (ImportRejected rejected) {
			problems.add(new Problem("files", rejected.getMessage()));
			return new Preview(detection, chosen, List.of(), List.of(), null, null, problems, null);
		}
		return previewOf(detection, chosen, null, imported, provenance);
	}

	private Preview previewOf(Detection detection, @Nullable HarnessFormat chosen, @Nullable SavedFormat saved,
			HarnessImport imported, ObjectNode provenance) {
		List<Problem> problems = new ArrayList<>();
		ObjectNode fileProvenance = imported.cellsDocument().deepCopy();
		fileProvenance.remove("cells");
		fileProvenance.remove("format");
		ObjectNode document = merge(imported.cellsDocument(), provenance);
		problems.addAll(unknownProvenanceFields(provenance));
		problems.addAll(limits.check(document));
		problems.addAll(RunDocumentValidator.validate(document));
		RunDocument run = problems.isEmpty() ? RunDocumentReader.read(document) : null;
		return new Preview(detection, chosen, imported.notes(), imported.countReadings(), fileProvenance, document,
				problems, run, saved);
	}

	/**
	 * Stores an upload in one transaction, with its files verbatim. The same files with
	 * the same provenance give the run stored before; corrected provenance makes a new
	 * run.
	 * @throws RunFileRejected with every problem, when it cannot be stored
	 */
	@Transactional
	public Stored store(List<InputFile> files, @Nullable HarnessFormat format, ObjectNode provenance,
			@Nullable TableMapping mapping, String uploadedBy) {
		return store(files, format, null, provenance, mapping, uploadedBy);
	}

	/**
	 * Stores an upload read with a built-in or a saved format (or neither, to detect). A
	 * run read with a saved format keeps that version's mapping beside its files: the run
	 * records the version that read it.
	 * @throws RunFileRejected with every problem, when it cannot be stored
	 */
	@Transactional
	public Stored store(List<InputFile> files, @Nullable HarnessFormat format, @Nullable SavedFormat saved,
			ObjectNode provenance, @Nullable TableMapping mapping, String uploadedBy) {
		Preview preview;
		try {
			preview = preview(files, format, saved, provenance, mapping);
		}
		catch (UploadTooLarge tooLarge) {
			audit.refused("import-run", names(files), tooLarge.getMessage());
			counters.refused("import", "too-large");
			throw tooLarge;
		}
		if (!preview.storable()) {
			audit.refused("import-run", names(files), preview.problems().toString());
			counters.refused("import", "invalid");
			throw new RunFileRejected(preview.problems());
		}
		List<UploadedFile> kept = new ArrayList<>();
		StringBuilder identity = new StringBuilder(preview.formatId()).append('\n');
		for (InputFile file : files) {
			kept.add(new UploadedFile(file.name(), mediaType(file), file.content()));
			identity.append(file.name()).append(' ').append(Sha256.hex(file.content())).append('\n');
		}
		identity.append(json.writeValueAsString(provenance)).append('\n');
		if (mapping != null) {
			identity.append(mapping).append('\n');
		}
		if (preview.saved() != null) {
			SavedFormat read = preview.saved();
			byte[] source = json.writerWithDefaultPrettyPrinter().writeValueAsBytes(read.source());
			kept.add(new UploadedFile("parity-format-" + read.name() + "@" + read.version() + ".json",
					"application/json", source));
			identity.append(json.writeValueAsString(read.source())).append('\n');
		}
		byte[] generated = json.writerWithDefaultPrettyPrinter().writeValueAsBytes(preview.document());
		kept.add(new UploadedFile("parity-run-document.json", "application/json", generated));
		Stored stored = runs.store(new RunWriter.NewRun(preview.run(), preview.document(),
				Sha256.hex(identity.toString().getBytes(StandardCharsets.UTF_8)), kept, uploadedBy));
		counters.stored("import", stored.created());
		audit.done("import-run", stored.id().value(),
				(stored.created() ? "stored " : "already stored; ") + preview.formatId() + ": " + names(files));
		return stored;
	}

	/**
	 * The document the files make, with the uploader's provenance laid over what the
	 * files state.
	 */
	ObjectNode merge(ObjectNode cellsDocument, ObjectNode provenance) {
		ObjectNode document = cellsDocument.deepCopy();
		document.put("format", RunDocumentReader.FORMAT);
		provenance.forEachEntry((name, value) -> {
			if (!PROVENANCE_FIELDS.contains(name) || value.isNull()) {
				return;
			}
			JsonNode existing = document.get(name);
			if (value.isObject() && existing != null && existing.isObject()) {
				ObjectNode merged = ((ObjectNode) existing).deepCopy();
				value.forEachEntry((field, fieldValue) -> {
					if (!fieldValue.isNull()) {
						merged.set(field, fieldValue);
					}
				});
				document.set(name, merged);
			}
			else {
				document.set(name, value);
			}
		});
		// A harness run is ours unless said otherwise; a workload nobody declared is an
		// empty declaration.
		if (!document.has("role")) {
			document.put("role", "measured");
		}
		if (!document.has("workload")) {
			document.putObject("workload");
		}
		// Keep the document's field order readable: format and title first, cells last.
		ObjectNode ordered = json.createObjectNode();
		for (String field : List.of("format", "title", "role", "source", "recorded_at", "system", "model", "engine",
				"harness", "workload", "context", "environment", "metric_definitions")) {
			if (document.has(field)) {
				ordered.set(field, document.get(field));
			}
		}
		document.forEachEntry((field, value) -> {
			if (!ordered.has(field) && !field.equals("cells") && !field.equals("caveats")) {
				ordered.set(field, value);
			}
		});
		if (document.has("cells")) {
			ordered.set("cells", document.get("cells"));
		}
		if (document.has("caveats")) {
			ordered.set("caveats", document.get("caveats"));
		}
		return ordered;
	}

	private static List<Problem> unknownProvenanceFields(ObjectNode provenance) {
		List<Problem> problems = new ArrayList<>();
		for (String name : provenance.propertyNames()) {
			if (!PROVENANCE_FIELDS.contains(name) && !name.equals("format")) {
				problems.add(new Problem("provenance." + name,
						name.equals("cells") ? "the cells come from the files, not from the provenance"
								: "unknown field \"" + name + "\" (allowed: "
										+ String.join(", ", PROVENANCE_FIELDS.stream().sorted().toList()) + ")"));
			}
		}
		return problems;
	}

	private static String mediaType(InputFile file) {
		byte[] c = file.content();
		if (c.length >= 4 && c[0] == 'P' && c[1] == 'K' && c[2] == 3 && c[3] == 4) {
			return "application/zip";
		}
		String name = file.name().toLowerCase(Locale.ROOT);
		if (name.endsWith(".jsonl")) {
			return "application/jsonl";
		}
		if (name.endsWith(".csv")) {
			return "text/csv";
		}
		if (name.endsWith(".md")) {
			return "text/markdown";
		}
		return name.endsWith(".json") ? "application/json" : "application/octet-stream";
	}

	private static String names(List<InputFile> files) {
		return String.join(", ", files.stream().map(InputFile::name).toList());
	}

}
