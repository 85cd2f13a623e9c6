package dev.parity.site;

import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.parity.record.Retraction;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What a page or an export must say before its numbers: that the item was superseded (and
 * by what) or retracted, that its settings differ from the server's defaults and what
 * that lets through, the reason given for them, that it was published with no comparable
 * cell, and that one of its runs was taken back. Every export starts with these, so that
 * a copy pasted into a blog post carries them.
 *
 * @param retraction the retraction or supersession of the item itself, if any
 * @param replacementTitle the title of what supersedes it
 * @param replacementUrl where that lives, absolute for exports
 * @param settings the line that discloses non-default settings, {@code null} under the
 * defaults
 * @param settingsReason the reason given for publishing with those settings
 * @param noComparable whether the item is a publication of a comparison with no
 * comparable cell
 * @param others further notices, e.g. a retracted run of a comparison
 */
public record Notices(@Nullable Retraction retraction, @Nullable String replacementTitle,
		@Nullable String replacementUrl, @Nullable String settings, @Nullable String settingsReason,
		boolean noComparable, List<String> others) {

	/** Said by a publication with no comparable cell; the page's banner says the same. */
	static final String NO_COMPARABLE = "No cell of this comparison is comparable: every number in it is greyed. "
			+ "It was published so, its author having confirmed it.";

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("yyyy-MM-dd").withZone(ZoneOffset.UTC);

	public Notices {
		others = List.copyOf(others);
	}

	/**
	 * The notice of a retraction or supersession, in words: "Superseded on 2026-12-01 by
	 * “Title” (url): reason".
	 */
	static String sentence(Retraction retraction, @Nullable String replacementTitle, @Nullable String replacementUrl) {
		if (retraction.superseded()) {
			return "Superseded on " + DAY.format(retraction.createdAt()) + " by “"
					+ (replacementTitle == null ? retraction.replacementId() : replacementTitle) + "” ("
					+ replacementUrl + "): " + retraction.reason();
		}
		return "Retracted on " + DAY.format(retraction.createdAt()) + ": " + retraction.reason();
	}

	/** Every notice, one line each, the item's own retraction first. */
	List<String> lines() {
		List<String> lines = new ArrayList<>();
		if (retraction != null) {
			lines.add(sentence(retraction, replacementTitle, replacementUrl));
		}
		if (settings != null) {
			lines.add(settings);
		}
		if (settingsReason != null) {
			lines.add("Reason given for these settings: " + settingsReason);
		}
		if (noComparable) {
			lines.add(NO_COMPARABLE);
		}
		lines.addAll(others);
		return lines;
	}

	/**
	 * The notices as Markdown quotes, user text escaped and the replacement linked; empty
	 * when there is none.
	 */
	String markdown() {
		StringBuilder md = new StringBuilder();
		if (retraction != null) {
			md.append("> **")
				.append(retraction.superseded() ? "Superseded" : "Retracted")
				.append("** on ")
				.append(DAY.format(retraction.createdAt()));
			if (retraction.superseded()) {
				md.append(" by [")
					.append(ComparisonExport.escape(
							replacementTitle == null ? String.valueOf(retraction.replacementId()) : replacementTitle))
					.append("](")
					.append(replacementUrl)
					.append(')');
			}
			md.append(": ").append(ComparisonExport.escape(retraction.reason())).append("\n\n");
		}
		List<String> rest = new ArrayList<>(lines());
		if (retraction != null) {
			rest.remove(0);
		}
		rest.forEach(line -> md.append("> ").append(ComparisonExport.escape(line)).append("\n\n"));
		return md.toString();
	}

	/**
	 * The notices as the first fields of a JSON export: {@code notices} (always,
	 * {@code []} when there is none), and {@code superseded: {by, by_title, url, reason,
	 * at}} or {@code retracted: {reason, at}} when taken back.
	 */
	void writeJson(ObjectNode json) {
		ArrayNode notices = json.putArray("notices");
		lines().forEach(notices::add);
		Superseded superseded = superseded();
		if (superseded != null) {
			json.set("superseded", JSON.valueToTree(superseded));
		}
		Retracted retracted = retracted();
		if (retracted != null) {
			json.set("retracted", JSON.valueToTree(retracted));
		}
	}

	/** What superseded the item; {@code null} unless it was superseded. */
	@Nullable Superseded superseded() {
		return retraction == null || !retraction.superseded() ? null : new Superseded(retraction.replacementId(),
				replacementTitle, replacementUrl, retraction.reason(), retraction.createdAt().toString());
	}

	/** Why the item was retracted; {@code null} unless it was retracted. */
	@Nullable Retracted retracted() {
		return retraction == null || retraction.superseded() ? null
				: new Retracted(retraction.reason(), retraction.createdAt().toString());
	}

	/**
	 * A supersession as the JSON answers state it.
	 *
	 * @param by the id of what supersedes the item
	 * @param byTitle its title
	 * @param url where it lives
	 * @param reason why
	 * @param at when
	 */
	@JsonPropertyOrder({ "by", "by_title", "url", "reason", "at" })
	record Superseded(@Nullable String by, @JsonProperty("by_title") @Nullable String byTitle, @Nullable String url,
			String reason, String at) {
	}

	/**
	 * A retraction as the JSON answers state it.
	 *
	 * @param reason why
	 * @param at when
	 */
	@JsonPropertyOrder({ "reason", "at" })
	record Retracted(String reason, String at) {
	}

}
