package dev.parity.ingest;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

import dev.parity.audit.AuditTrail;
import dev.parity.ingest.harness.ImportTooLarge;
import dev.parity.ingest.harness.JsonBudget;
import dev.parity.ingest.harness.JsonLimits;
import dev.parity.run.Cell;
import dev.parity.run.RunDocument;
import dev.parity.run.RunDocumentReader;
import dev.parity.run.RunId;
import dev.parity.run.RunWriter;
import dev.parity.run.RunWriter.Stored;
import dev.parity.run.RunWriter.UploadedFile;
import dev.parity.run.Sha256;
import dev.parity.web.Problem;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Turns an uploaded run document into a stored run: parse strictly, validate everything,
 * store in one transaction. A rejected document leaves no trace; the same bytes again
 * give the same run.
 *
 * <p>
 * The document is read as a stream: everything but the cells as one small tree, then one
 * cell at a time, each validated and written to the database ({@code COPY}) before the
 * next is read, so that a large document (100 MB, millions of samples) is held once, as
 * the uploaded bytes, and never as a tree. A problem anywhere stops the writing; the
 * transaction is rolled back and every problem is reported, as before.
 */
@Service
public class RunIngest {

	/**
	 * Strict reading within the default limits: a duplicate key or trailing garbage is an
	 * error.
	 */
	private static final JsonMapper STRICT = DocumentLimits.defaults().mapper();

	private final RunWriter runs;

	private final AuditTrail audit;

	private final DocumentLimits limits;

	/** Strict reading within the configured limits (nesting depth, string length). */
	private final JsonMapper reader;

	private final UploadCounters counters;

	RunIngest(RunWriter runs, AuditTrail audit, DocumentLimits limits, UploadCounters counters) {
		this.counters = counters;
		this.runs = runs;
		this.audit = audit;
		this.limits = limits;
		this.reader = limits.mapper();
	}

	/**
	 * Stores a native run document.
	 * @param bytes the document, exactly as uploaded
	 * @param fileName the name it was uploaded under
	 * @param uploadedBy who uploads it
	 * @return the run, new or already stored
	 * @throws RunFileRejected with every problem, when the document is not valid
	 */
	@Transactional
	public Stored ingestDocument(byte[] bytes, String uploadedName, String uploadedBy) {
		// The name is the uploader's text and is stored as text: PostgreSQL refuses a NUL
		// in it.
		String fileName = RunDocumentValidator.printable(uploadedName);
		Stored stored;
		try {
			if (bytes.length == 0) {
				throw empty();
			}
			String sha256 = Sha256.hex(bytes);
			Optional<RunId> existing = runs.findIdByUploadSha(sha256);
			Read read;
			try (RunWriter.Storing storing = existing.isPresent() ? null : runs.begin()) {
				read = read(bytes, storing, null);
				if (read.definitionsAfterCells()) {
					// The cells were checked before the metrics they may report were all
					// known: read again, knowing them.
					if (storing != null) {
						storing.rollback();
					}
					try (RunWriter.Storing again = existing.isPresent() ? null : runs.begin()) {
						read = read(bytes, again, read.header().get("metric_definitions"));
						stored = store(read, existing, again, sha256, fileName, bytes, uploadedBy);
					}
				}
				else {
					stored = store(read, existing, storing, sha256, fileName, bytes, uploadedBy);
				}
			}
		}
		catch (RunFileRejected rejected) {
			// Problems quote the document (a field name with a NUL in it): the audit
			// trail stores them as text.
			audit.refused("upload-run", fileName, RunDocumentValidator
				.printable(rejected.problems().size() + " problem(s): " + rejected.getMessage()));
			counters.refused("document", rejected instanceof UploadTooLarge ? "too-large" : "invalid");
			throw rejected;
		}
		counters.stored("document", stored.created());
		audit.done("upload-run", stored.id().value(),
				(stored.created() ? "stored " : "already stored; ") + fileName + ", " + bytes.length + " bytes");
		return stored;
	}

	private static Stored store(Read read, Optional<RunId> existing, RunWriter.@Nullable Storing storing, String sha256,
			String fileName, byte[] bytes, String uploadedBy) {
		if (!read.problems().isEmpty()) {
			throw new RunFileRejected(read.problems());
		}
		if (existing.isPresent() || storing == null) {
			return new Stored(existing.orElseThrow(), false);
		}
		return storing.finish(sha256, read.document(), read.header(),
				List.of(new UploadedFile(fileName, "application/json", bytes, sha256)), uploadedBy);
	}

	/** Parses JSON strictly, turning a syntax error into a problem that says where. */
	public static JsonNode parse(byte[] bytes) {
		return parse(bytes, STRICT, JsonLimits.DEFAULT);
	}

	private static JsonNode parse(byte[] bytes, JsonMapper mapper, JsonLimits limits) {
		if (bytes.length == 0) {
			throw empty();
		}
		try {
			// Counted before the tree is built: one that would not fit is refused having
			// taken no memory.
			try (JsonParser counting = mapper.createParser(bytes)) {
				JsonBudget.of(limits).check(counting, "$");
			}
			return mapper.readTree(bytes);
		}
		catch (JacksonException ex) {
			throw notJson(ex);
		}
		catch (ImportTooLarge ex) {
			throw new UploadTooLarge("$", ex.getMessage().substring("$: ".length()));
		}
	}

	/**
	 * What a streamed reading found: the problems (none when valid), the document without
	 * its cells, and the run as read, whose cells have no samples (they went to the
	 * database as they were read).
	 */
	private record Read(List<Problem> problems, ObjectNode header, @Nullable RunDocument document,
			boolean definitionsAfterCells) {
	}

	/**
	 * Reads, validates and (while valid) hands each cell to {@code storing}. The cells
	 * are checked against the metric definitions read before them, or against
	 * {@code definitions} when given; definitions found after the cells are reported, for
	 * the caller to read again.
	 */
	private Read read(byte[] bytes, RunWriter.@Nullable Storing storing, @Nullable JsonNode definitions) {
		RunDocumentValidator.Streaming validator = new RunDocumentValidator.Streaming();
		ObjectNode header = STRICT.createObjectNode();
		List<Cell> cells = new ArrayList<>();
		boolean cellsStreamed = false;
		boolean definitionsAfterCells = false;
		int cellCount = 0;
		long sampleCount = 0;
		try (JsonParser parser = reader.createParser(bytes)) {
			if (parser.nextToken() != JsonToken.START_OBJECT) {
				// Not an object: nothing to stream; the validator says what it is.
				return new Read(RunDocumentValidator.validate(parse(bytes, reader, limits.jsonLimits())), header, null,
						false);
			}
			boolean valid = true;
			// Everything but the cells is held together; each cell is held alone, as it
			// is read.
			JsonBudget headerBudget = JsonBudget.of(limits.jsonLimits());
			while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
				String name = parser.currentName();
				JsonToken value = parser.nextToken();
				if (name.equals("cells") && value == JsonToken.START_ARRAY) {
					cellsStreamed = true;
					Predicate<String> knownMetric = RunDocumentValidator.Streaming
						.knownMetrics(definitions != null ? definitions : header.get("metric_definitions"));
					while (parser.nextToken() != JsonToken.END_ARRAY) {
						JsonNode cell = tree(parser, JsonBudget.of(limits.jsonLimits()), "$.cells[" + cellCount + "]",
								storing);
						cellCount++;
						sampleCount += cell.path("samples").size();
						if (cellCount > limits.maxCells() || sampleCount > limits.maxSamples()) {
							// Over a limit: stop reading at once, and say which limit.
							if (storing != null) {
								storing.discard();
							}
							throw new RunFileRejected(limits.check(cellCount, sampleCount));
						}
						valid = validator.cell(cell, knownMetric) && valid;
						if (valid) {
							Cell read = RunDocumentReader.cell(withoutSamples((ObjectNode) cell));
							cells.add(new Cell(read.params(), null, read.requests(), null, null, Map.of(), List.of()));
							if (storing != null) {
								storing.cell(read, cell);
							}
						}
						else if (storing != null) {
							storing.discard();
						}
					}
				}
				else {
					header.set(name, tree(parser, headerBudget, "$." + name, storing));
					definitionsAfterCells |= definitions == null && cellsStreamed && name.equals("metric_definitions");
				}
			}
			JsonToken trailing = parser.nextToken();
			if (trailing != null) {
				throw new RunFileRejected("$",
						"not valid JSON at line " + parser.currentLocation().getLineNr() + ", column "
								+ parser.currentLocation().getColumnNr() + ": Trailing token (of type " + trailing
								+ ") found after value: not allowed");
			}
		}
		catch (JacksonException ex) {
			throw notJson(ex);
		}
		if (definitionsAfterCells) {
			return new Read(List.of(), header, null, true);
		}
		List<Problem> problems = validator.problems(header, cellsStreamed);
		if (!problems.isEmpty()) {
			return new Read(problems, header, null, false);
		}
		ObjectNode withoutCells = header.deepCopy();
		withoutCells.putArray("cells");
		RunDocument run = RunDocumentReader.read(withoutCells);
		return new Read(problems, header,
				new RunDocument(run.title(), run.role(), run.recordedAt(), run.provenance(), cells), false);
	}

	/**
	 * The value the parser is at, as a tree, counted against the budget as it is built.
	 * @throws UploadTooLarge naming the limit, when the value would go beyond it (the
	 * storing is discarded)
	 */
	private static JsonNode tree(JsonParser parser, JsonBudget budget, String path,
			RunWriter.@Nullable Storing storing) {
		try {
			return budget.readCurrent(parser, path);
		}
		catch (ImportTooLarge ex) {
			if (storing != null) {
				storing.discard();
			}
			throw new UploadTooLarge(path, ex.getMessage().substring(path.length() + 2));
		}
	}

	private static ObjectNode withoutSamples(ObjectNode cell) {
		if (!cell.has("samples")) {
			return cell;
		}
		ObjectNode shallow = STRICT.createObjectNode();
		cell.forEachEntry((name, value) -> {
			if (!name.equals("samples")) {
				shallow.set(name, value);
			}
		});
		return shallow;
	}

	private static RunFileRejected empty() {
		return new RunFileRejected("$", "the upload is empty: expected a benchmark-run/1 JSON document");
	}

	private static RunFileRejected notJson(JacksonException ex) {
		TokenStreamLocation location = ex.getLocation();
		String where = location == null || location.getLineNr() < 0 ? ""
				: " at line " + location.getLineNr() + ", column " + location.getColumnNr();
		return new RunFileRejected("$", "not valid JSON" + where + ": " + ex.getOriginalMessage());
	}

}
