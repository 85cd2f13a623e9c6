package dev.parity.ingest.harness;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * What {@link FormatDetector} made of some files: a format when it is certain, otherwise
 * the candidates for the user to pick from (possibly none), always with an explanation.
 *
 * @param format the recognised format; {@code null} when detection is not certain
 * @param candidates the formats that could apply, the certain one alone when certain
 * @param explanation why, for the upload preview
 */
public record Detection(@Nullable HarnessFormat format, List<HarnessFormat> candidates, String explanation) {

	public Detection {
		candidates = List.copyOf(candidates);
	}

	static Detection certain(HarnessFormat format, String explanation) {
		return new Detection(format, List.of(format), explanation);
	}

	static Detection uncertain(List<HarnessFormat> candidates, String explanation) {
		return new Detection(null, candidates, explanation);
	}

	/** Whether exactly one format recognised the files surely. */
	public boolean certain() {
		return format != null;
	}

}
