package dev.parity.record;

import java.time.Instant;
import java.util.List;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * A comparison saved under its own permalink so that a blog post links a frozen claim:
 * the result computed at publication, with the version of the rules that computed it.
 *
 * @param id the permanent id
 * @param baselineId the baseline run
 * @param contenderId the contender run
 * @param settings the settings (URL parameters) the comparison was computed with
 * @param title the title
 * @param caption the caption
 * @param result the comparison as computed at publication, as its publisher froze it
 * (this module does not read it)
 * @param rulesVersion the version of the rules that computed it
 * @param createdAt when it was published
 * @param createdBy who published it
 * @param settingsReason why it was published with settings other than the server's
 * defaults; {@code null} under the defaults
 * @param noComparableConfirmed whether its author confirmed publishing a comparison with
 * no comparable cell
 * @param contenders with several contenders, all their runs in the order published
 * ({@code contenderId} is the first), the result holding each contender's comparison;
 * {@code null} for one contender
 */
public record Publication(String id, String baselineId, String contenderId, JsonNode settings, String title,
		String caption, JsonNode result, String rulesVersion, Instant createdAt, String createdBy,
		@Nullable String settingsReason, boolean noComparableConfirmed, @Nullable List<String> contenders) {

	public Publication {
		contenders = contenders == null ? null : List.copyOf(contenders);
	}

	/** Whether it publishes several contenders against one baseline. */
	public boolean several() {
		return contenders != null;
	}

	public String url() {
		return "/published/" + id;
	}

}
