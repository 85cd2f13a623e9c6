package dev.parity.ingest.harness;

import java.util.List;

import dev.parity.run.RunDocumentReader;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Parity's own {@code benchmark-run/1} document, passed through as uploaded: it needs no
 * import, only the validation every document gets.
 */
final class NativeDocument implements HarnessImporter {

	@Override
	public HarnessFormat format() {
		return HarnessFormat.NATIVE;
	}

	@Override
	public FileRole role(ParsedFile file) {
		JsonNode json = file.looksLikeJson() ? file.jsonOrNull() : null;
		if (json == null) {
			return HarnessImporter.otherFile(file);
		}
		return RunDocumentReader.FORMAT.equals(Fields.text(json, "format")) ? FileRole.OWN : FileRole.FOREIGN;
	}

	@Override
	public HarnessImport read(List<ParsedFile> files, @Nullable TableMapping mapping) {
		RunDraft run = new RunDraft();
		List<ParsedFile> own = ownFiles(files, run);
		if (own.size() > 1) {
			throw new ImportRejected(own.get(0).name() + ", " + own.get(1).name()
					+ ": one run document describes one run; upload them one at a time");
		}
		JsonNode document = own.get(0).json();
		if (!document.isObject()) {
			throw new ImportRejected(own.get(0).name() + ": a run document is a JSON object");
		}
		return new HarnessImport((ObjectNode) document, List.of());
	}

}
