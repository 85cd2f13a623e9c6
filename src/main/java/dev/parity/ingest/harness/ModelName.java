package dev.parity.ingest.harness;

import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * A model name a harness records. Only a repository id ({@code owner/name}) becomes
 * {@code model.repo}; a served name ({@code qwen3.6-nvfp4}) or a local path
 * ({@code /workspace/qwen-3.5-27b}) does not say which repository it is, so it is only
 * noted.
 */
final class ModelName {

	private static final Pattern REPOSITORY = Pattern
		.compile("[A-Za-z0-9][A-Za-z0-9._-]*+/[A-Za-z0-9][A-Za-z0-9._-]*+");

	private ModelName() {
	}

	static boolean isRepository(String name) {
		return REPOSITORY.matcher(name).matches() && !name.contains("..");
	}

	/**
	 * States {@code model.repo} when the name is a repository id, notes it otherwise.
	 * @param field where the file records it, e.g. {@code model_id}
	 */
	static void state(RunDraft run, @Nullable String name, String field, String source) {
		if (name == null || name.isBlank()) {
			return;
		}
		if (isRepository(name)) {
			run.state("model.repo", name, source);
		}
		else {
			run.note("the model is recorded as '" + name + "' (" + field
					+ "), which is not a repository id: model.repo is left for you to state");
		}
	}

}
