package dev.parity.ingest.harness;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * Recognises the format of uploaded files from their content, never from their names
 * alone. A wrong guess is worse than asking: detection is certain only when exactly one
 * format recognises the files surely; otherwise it returns the candidates for the user to
 * pick from, with an explanation.
 */
public final class FormatDetector {

	private FormatDetector() {
	}

	/** The format of the files, zips expanded. */
	public static Detection detect(List<InputFile> files) {
		try {
			return detect(UploadedFiles.expand(files));
		}
		catch (ImportRejected ex) {
			return Detection.uncertain(List.of(), ex.getMessage());
		}
	}

	/**
	 * The format of files already expanded (see {@link UploadedFiles#detection()}, which
	 * keeps the answer).
	 */
	static Detection detect(UploadedFiles files) {
		List<ParsedFile> parsed = files.parsed();
		if (parsed.isEmpty()) {
			return Detection.uncertain(List.of(), "no file uploaded");
		}
		List<HarnessFormat> sure = new ArrayList<>();
		List<HarnessFormat> possible = new ArrayList<>();
		List<String> reasons = new ArrayList<>();
		for (HarnessImporter importer : HarnessImporters.all()) {
			Recognition recognition = importer.recognise(parsed);
			if (recognition.sure()) {
				sure.add(importer.format());
				reasons.add(recognition.reason());
			}
			else if (recognition.possible()) {
				possible.add(importer.format());
			}
		}
		// A harness that recognises a table by its own columns reads it without a
		// mapping: reading the same table as
		// a published one steps aside.
		if (sure.stream().anyMatch(format -> !format.needsMapping())) {
			for (int i = sure.size() - 1; i >= 0; i--) {
				if (sure.get(i).needsMapping()) {
					sure.remove(i);
					reasons.remove(i);
				}
			}
		}
		String problems = problems(parsed);
		if (sure.size() == 1) {
			return Detection.certain(sure.get(0), reasons.get(0) + problems);
		}
		if (sure.size() > 1) {
			return Detection.uncertain(sure,
					"the files fit more than one format, pick one: " + String.join("; ", reasons) + problems);
		}
		if (!possible.isEmpty()) {
			List<String> labels = possible.stream().map(format -> format.label() + " (" + format.id() + ")").toList();
			return Detection.uncertain(possible, "nothing distinctive in the content; it could be "
					+ String.join(" or ", labels) + ": pick one" + problems);
		}
		if (parsed.size() > 1) {
			String mixed = mixedFormats(parsed);
			if (mixed != null) {
				return Detection.uncertain(List.of(), "the files hold more than one format (" + mixed
						+ "): upload one run's files at a time" + problems);
			}
		}
		return Detection.uncertain(List.of(), "not a format Parity knows: " + names(parsed) + problems);
	}

	/**
	 * What each file would be on its own, when at least two are recognised as different
	 * formats.
	 */
	private static @Nullable String mixedFormats(List<ParsedFile> files) {
		List<String> described = new ArrayList<>();
		Set<HarnessFormat> formats = new HashSet<>();
		for (ParsedFile file : files) {
			for (HarnessImporter importer : HarnessImporters.all()) {
				if (importer.recognise(List.of(file)).sure()) {
					described.add(file.name() + ": " + importer.format().label());
					formats.add(importer.format());
					break;
				}
			}
		}
		return formats.size() > 1 ? String.join("; ", described) : null;
	}

	private static String problems(List<ParsedFile> files) {
		List<String> problems = new ArrayList<>();
		for (ParsedFile file : files) {
			String problem = file.jsonProblem();
			if (problem != null) {
				problems.add(problem);
			}
		}
		return problems.isEmpty() ? "" : " (" + String.join("; ", problems) + ")";
	}

	private static String names(List<ParsedFile> files) {
		List<String> names = files.stream().map(ParsedFile::name).limit(5).toList();
		return String.join(", ", names) + (files.size() > 5 ? " and " + (files.size() - 5) + " more" : "");
	}

}
