package dev.parity.site;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.parity.compare.ComparisonSnapshot;
import dev.parity.record.Publication;
import dev.parity.record.Retraction;
import io.swagger.v3.oas.annotations.media.Schema;
import org.jspecify.annotations.Nullable;

/**
 * The answers of {@code GET /api/published} and {@code GET /api/published/{id}}: a
 * publication's record, how it was taken back, and the comparison it froze.
 */
final class PublicationAnswers {

	private PublicationAnswers() {
	}

	/**
	 * A publish request as the OpenAPI document describes it (the controller reads the
	 * tree, to name each field written wrong).
	 *
	 * @param baseline the baseline: a run, or replicates a1+a2
	 * @param contender the contender, for one
	 * @param contenders 1 to 8 contenders, each against the baseline, instead of
	 * {@code contender}
	 * @param title the title
	 * @param caption the caption
	 * @param settings the comparison settings by the names of the URL parameters; each a
	 * string, a number or a list of strings
	 * @param reason why settings other than the defaults
	 * @param confirmNoComparable publish although no cell is comparable
	 * @param chartMetric the metric whose chart it draws; one of the comparison's
	 */
	@Schema(name = "PublishRequest")
	record PublishBody(String baseline, @Nullable String contender, @Nullable List<String> contenders, String title,
			@Nullable String caption, @Nullable Map<String, Object> settings, @Nullable String reason,
			@JsonProperty("confirm_no_comparable") @Nullable Boolean confirmNoComparable,
			@JsonProperty("chart_metric") @Nullable String chartMetric) {
	}

	/**
	 * A page of publications, newest first.
	 *
	 * @param total how many publications there are
	 * @param page the page's number, from 0
	 * @param size the page's size
	 * @param published the publications on this page
	 */
	@Schema(name = "PublicationList")
	@JsonPropertyOrder({ "total", "page", "size", "published" })
	record Listing(long total, int page, int size, List<Listed> published) {
	}

	/**
	 * A publication as the list shows it.
	 *
	 * @param id its permanent id
	 * @param url its page
	 * @param title its title
	 * @param caption its caption
	 * @param publishedAt when it was published
	 * @param publishedBy who published it
	 * @param baseline the baseline run
	 * @param contender the (first) contender run
	 * @param contenders with several contenders, all their runs in order; absent for one
	 * @param rulesVersion the version of the rules that computed it
	 * @param settingsReason why it was published with settings other than the defaults
	 * @param noComparableConfirmed whether its author confirmed publishing with no
	 * comparable cell
	 * @param retraction how it was taken back; absent while it stands
	 */
	@Schema(name = "PublicationListed")
	@JsonPropertyOrder({ "id", "url", "title", "caption", "published_at", "published_by", "baseline", "contender",
			"contenders", "rules_version", "settings_reason", "no_comparable_confirmed", "retraction" })
	record Listed(String id, String url, String title, String caption, @JsonProperty("published_at") String publishedAt,
			@JsonProperty("published_by") String publishedBy, String baseline, String contender,
			@JsonInclude(JsonInclude.Include.NON_NULL) @Nullable List<String> contenders,
			@JsonProperty("rules_version") String rulesVersion,
			@JsonProperty("settings_reason") @Nullable String settingsReason,
			@JsonProperty("no_comparable_confirmed") boolean noComparableConfirmed,
			@JsonInclude(JsonInclude.Include.NON_NULL) @Nullable Mark retraction) {

		static Listed of(Publication p, @Nullable Retraction mark) {
			return new Listed(p.id(), p.url(), p.title(), p.caption(), p.createdAt().toString(), p.createdBy(),
					p.baselineId(), p.contenderId(), p.several() ? p.contenders() : null, p.rulesVersion(),
					p.settingsReason(), p.noComparableConfirmed(), Mark.of(mark));
		}

	}

	/**
	 * A publication with the comparison it froze.
	 *
	 * @param id its permanent id
	 * @param url its page
	 * @param title its title
	 * @param caption its caption
	 * @param publishedAt when it was published
	 * @param publishedBy who published it
	 * @param rulesVersion the version of the rules that computed it
	 * @param settingsReason why it was published with settings other than the defaults
	 * @param noComparableConfirmed whether its author confirmed publishing with no
	 * comparable cell
	 * @param chartMetric the metric whose chart it draws, {@code null} for the default
	 * @param baseline with several contenders, the baseline run; absent for one
	 * @param contenders with several contenders, all their runs in order; absent for one
	 * @param notices what must be said before its numbers, one line each
	 * @param superseded what superseded it; absent unless superseded
	 * @param retracted why it was retracted; absent unless retracted
	 * @param retraction how it was taken back; absent while it stands
	 * @param comparison the comparison as computed at publication, as stored (one
	 * snapshot, or {@link FrozenContenders}; a JSON tree)
	 */
	@Schema(name = "Publication")
	@JsonPropertyOrder({ "id", "url", "title", "caption", "published_at", "published_by", "rules_version",
			"settings_reason", "no_comparable_confirmed", "chart_metric", "baseline", "contenders", "notices",
			"superseded", "retracted", "retraction", "comparison" })
	record Published(String id, String url, String title, String caption,
			@JsonProperty("published_at") String publishedAt, @JsonProperty("published_by") String publishedBy,
			@JsonProperty("rules_version") String rulesVersion,
			@JsonProperty("settings_reason") @Nullable String settingsReason,
			@JsonProperty("no_comparable_confirmed") boolean noComparableConfirmed,
			@JsonProperty("chart_metric") @Nullable String chartMetric,
			@JsonInclude(JsonInclude.Include.NON_NULL) @Nullable String baseline,
			@JsonInclude(JsonInclude.Include.NON_NULL) @Nullable List<String> contenders, List<String> notices,
			@JsonInclude(JsonInclude.Include.NON_NULL) Notices.@Nullable Superseded superseded,
			@JsonInclude(JsonInclude.Include.NON_NULL) Notices.@Nullable Retracted retracted,
			@JsonInclude(JsonInclude.Include.NON_NULL) @Nullable Mark retraction, @Schema(oneOf = {
					ComparisonSnapshot.class, FrozenContenders.class }) Object comparison){

		static Published of(Publication p, @Nullable String chartMetric, Notices notices, @Nullable Retraction mark) {
			return new Published(p.id(), p.url(), p.title(), p.caption(), p.createdAt().toString(), p.createdBy(),
					p.rulesVersion(), p.settingsReason(), p.noComparableConfirmed(), chartMetric,
					p.several() ? p.baselineId() : null, p.several() ? p.contenders() : null, notices.lines(),
					notices.superseded(), notices.retracted(), Mark.of(mark), p.result());
		}

	}

	/**
	 * How a publication was taken back.
	 *
	 * @param kind {@code retracted} or {@code superseded}
	 * @param reason why
	 * @param replacement the page of what supersedes it, {@code null} when retracted
	 * @param at when
	 */
	@Schema(name = "PublicationRetraction")
	@JsonPropertyOrder({ "kind", "reason", "replacement", "at" })
	record Mark(String kind, String reason, @Nullable String replacement, String at) {

		static @Nullable Mark of(@Nullable Retraction retraction) {
			return retraction == null ? null : new Mark(retraction.kind(), retraction.reason(),
					retraction.replacementUrl(), retraction.createdAt().toString());
		}

	}

	/**
	 * What a publication of several contenders froze.
	 *
	 * @param baseline the baseline's path
	 * @param path the comparison's path, {@code baseline...c1,c2}
	 * @param comparisons each pairwise comparison's API address, in order
	 * @param contenders each pairwise comparison as computed at publication, in order
	 */
	@Schema(name = "FrozenContenders")
	@JsonPropertyOrder({ "baseline", "path", "comparisons", "contenders" })
	record FrozenContenders(String baseline, String path, List<String> comparisons,
			List<ComparisonSnapshot> contenders) {
	}

}
