package dev.parity.ingest;

import java.util.ArrayList;
import java.util.List;

import dev.parity.audit.AuditTrail;
import dev.parity.run.RunDocument;
import dev.parity.run.RunDocumentReader;
import dev.parity.run.RunRepository;
import dev.parity.run.RunRepository.Stored;
import dev.parity.run.RunRepository.UploadedFile;
import dev.parity.run.Sha256;
import tools.jackson.core.JacksonException;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Turns an uploaded run document into a stored run: parse strictly, validate everything, store in one
 * transaction. A rejected document leaves no trace; the same bytes again give the same run.
 */
@Service
public class RunIngest {

	/** Strict reading: a duplicate key or trailing garbage is an error, never silently resolved. */
	private static final JsonMapper STRICT = DocumentLimits.defaults().mapper();

	private final RunRepository runs;

	private final AuditTrail audit;

	private final DocumentLimits limits;

	private final JsonMapper reader;

	RunIngest(RunRepository runs, AuditTrail audit, DocumentLimits limits) {
		this.runs = runs;
		this.audit = audit;
		this.limits = limits;
		this.reader = limits.mapper();
	}

	/**
	 * Stores a native run document.
	 *
	 * @param bytes the document, exactly as uploaded
	 * @param uploadedName the name it was uploaded under
	 * @param uploadedBy who uploads it
	 * @return the run, new or already stored
	 * @throws RunFileRejected with every problem, when the document is not valid
	 */
	@Transactional
	public Stored ingestDocument(byte[] bytes, String uploadedName, String uploadedBy) {
		// The name is the uploader's text and is stored as text: PostgreSQL refuses a NUL in it.
		String fileName = RunDocumentValidator.printable(uploadedName);
		JsonNode document;
		try {
			document = parse(bytes, reader);
			List<Problem> problems = new ArrayList<>(limits.check(document));
			problems.addAll(RunDocumentValidator.validate(document));
			if (!problems.isEmpty()) {
				throw new RunFileRejected(problems);
			}
		}
		catch (RunFileRejected rejected) {
			// Problems quote the document (a field name with a NUL in it): the audit trail stores them as text.
			audit.refused("upload-run", fileName,
					RunDocumentValidator.printable(rejected.problems().size() + " problem(s): " + rejected.getMessage()));
			throw rejected;
		}
		RunDocument run = RunDocumentReader.read(document);
		Stored stored = runs.store(new RunRepository.NewRun(run, document, Sha256.hex(bytes),
				List.of(new UploadedFile(fileName, "application/json", bytes)), uploadedBy));
		audit.done("upload-run", stored.id().value(), (stored.created() ? "stored " : "already stored; ") + fileName + ", "
				+ bytes.length + " bytes");
		return stored;
	}

	/** Parses JSON strictly, turning a syntax error into a problem that says where. */
	public static JsonNode parse(byte[] bytes) {
		return parse(bytes, STRICT);
	}

	private static JsonNode parse(byte[] bytes, JsonMapper mapper) {
		if (bytes.length == 0) {
			throw new RunFileRejected("$", "the upload is empty: expected a benchmark-run/1 JSON document");
		}
		try {
			return mapper.readTree(bytes);
		}
		catch (JacksonException ex) {
			TokenStreamLocation location = ex.getLocation();
			String where = location == null || location.getLineNr() < 0 ? ""
					: " at line " + location.getLineNr() + ", column " + location.getColumnNr();
			throw new RunFileRejected("$", "not valid JSON" + where + ": " + ex.getOriginalMessage());
		}
	}

}
