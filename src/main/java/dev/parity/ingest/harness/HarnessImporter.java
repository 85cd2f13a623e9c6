package dev.parity.ingest.harness;

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * Reads one upload format: says what each file is to it (so detection can ask every
 * importer), and turns the files into an import.
 */
interface HarnessImporter {

	HarnessFormat format();

	/**
	 * What the file is to this importer, judged from its content, never from its name
	 * alone.
	 */
	FileRole role(ParsedFile file);

	/**
	 * @throws ImportRejected naming the file and the problem
	 */
	HarnessImport read(List<ParsedFile> files, @Nullable TableMapping mapping);

	/**
	 * Sure when some file is this format's own and none is foreign; possible when some
	 * file perhaps is; none otherwise.
	 */
	default Recognition recognise(List<ParsedFile> files) {
		List<String> own = new ArrayList<>();
		List<String> perhaps = new ArrayList<>();
		for (ParsedFile file : files) {
			switch (role(file)) {
				case OWN -> own.add(file.name());
				case OWN_PERHAPS -> perhaps.add(file.name());
				case FOREIGN -> {
					return Recognition.none();
				}
				default -> {
				}
			}
		}
		if (!own.isEmpty()) {
			return new Recognition(Recognition.Certainty.SURE, format().label() + ": " + describe(own));
		}
		if (!perhaps.isEmpty()) {
			return new Recognition(Recognition.Certainty.POSSIBLE, format().label() + "? " + describe(perhaps)
					+ " could be, but nothing in the content is distinctive");
		}
		return Recognition.none();
	}

	private static String describe(List<String> names) {
		return names.size() <= 3 ? String.join(", ", names)
				: String.join(", ", names.subList(0, 3)) + " and " + (names.size() - 3) + " more";
	}

	/**
	 * The usual role of a file that is not this format's: skipped when it is not JSON,
	 * broken when it is JSON that does not parse, foreign otherwise.
	 */
	static FileRole otherFile(ParsedFile file) {
		if (!file.looksLikeJson()) {
			return FileRole.IGNORABLE;
		}
		return file.jsonValuesOrNull() == null ? FileRole.BROKEN : FileRole.FOREIGN;
	}

	/** The files with the given role, for reading. */
	default List<ParsedFile> withRole(List<ParsedFile> files, FileRole wanted) {
		return files.stream().filter(file -> role(file) == wanted).toList();
	}

	/**
	 * The files to read: own (and possibly own) files; broken ones are read too, so they
	 * are rejected with the place they break. Skipped files are noted.
	 * @throws ImportRejected when a file is foreign to this format
	 */
	default List<ParsedFile> ownFiles(List<ParsedFile> files, RunDraft run) {
		List<ParsedFile> own = new ArrayList<>();
		List<String> skipped = new ArrayList<>();
		for (ParsedFile file : files) {
			switch (role(file)) {
				case OWN, OWN_PERHAPS -> own.add(file);
				case BROKEN -> file.jsonValues();
				case FOREIGN -> throw new ImportRejected(file.name() + ": not " + format().label() + " output");
				case IGNORABLE -> skipped.add(file.name());
				case COMPANION -> {
				}
			}
		}
		if (!skipped.isEmpty()) {
			run.note("skipped (not " + format().label() + " results): " + String.join(", ", skipped));
		}
		if (own.isEmpty()) {
			throw new ImportRejected(files.isEmpty() ? "no file uploaded"
					: String.join(", ", files.stream().map(ParsedFile::name).toList()) + ": no " + format().label()
							+ " result found");
		}
		return own;
	}

}
