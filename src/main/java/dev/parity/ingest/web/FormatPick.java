package dev.parity.ingest.web;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import dev.parity.ingest.RunFileRejected;
import dev.parity.ingest.harness.HarnessFormat;
import dev.parity.ingest.mapping.SavedFormat;
import dev.parity.ingest.mapping.SavedFormats;
import org.jspecify.annotations.Nullable;

import org.springframework.util.StringUtils;

/**
 * The format a request picked: a built-in one by its id ({@code vllm}), a saved one by
 * name (its latest version) or {@code name@version}, or none (detect it).
 *
 * @param builtIn the built-in format, or {@code null}
 * @param saved the saved format's version, or {@code null}
 */
record FormatPick(@Nullable HarnessFormat builtIn, @Nullable SavedFormat saved) {

	static FormatPick none() {
		return new FormatPick(null, null);
	}

	/**
	 * @throws RunFileRejected on {@code format} naming the built-in and saved formats
	 * when there is no such format
	 */
	static FormatPick of(@Nullable String id, SavedFormats savedFormats) {
		if (!StringUtils.hasText(id) || id.strip().equals("auto")) {
			return none();
		}
		Optional<HarnessFormat> builtIn = HarnessFormat.ofId(id.strip());
		if (builtIn.isPresent()) {
			return new FormatPick(builtIn.get(), null);
		}
		Optional<SavedFormat> saved = savedFormats.resolve(id);
		if (saved.isPresent()) {
			return new FormatPick(null, saved.get());
		}
		List<String> known = new ArrayList<>(Arrays.stream(HarnessFormat.values()).map(HarnessFormat::id).toList());
		savedFormats.latest().forEach(format -> known.add(format.name()));
		throw new RunFileRejected("format",
				"unknown format '" + id + "'; one of " + known + " (a saved format also as name@version)");
	}

	/** The id to show in the form: {@code vllm}, {@code lab-bench@2}, or empty. */
	String id() {
		return saved != null ? saved.id() : builtIn != null ? builtIn.id() : "";
	}

}
