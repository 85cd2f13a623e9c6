package dev.parity;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import org.springframework.web.util.HtmlUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A form as a page answered it: a field's tag, what it holds, and the message next to it.
 */
public record FormPage(String html) {

	/**
	 * The part of the page from this text on: the form that follows it, when another
	 * before it has the same fields.
	 */
	public FormPage after(String text) {
		int start = html.indexOf(text);
		assertThat(start).as(text).isNotNegative();
		return new FormPage(html.substring(start));
	}

	/** The opening tag of the first field with this name. */
	public String field(String name) {
		Matcher tag = Pattern.compile("<(input|select|textarea)\\b[^>]*name=\"" + Pattern.quote(name) + "\"[^>]*>")
			.matcher(html);
		assertThat(tag.find()).as("field " + name).isTrue();
		return tag.group();
	}

	/** An attribute of a field, unescaped, or {@code null} when it has none. */
	public @Nullable String attribute(String name, String attribute) {
		Matcher value = Pattern.compile("\\s" + Pattern.quote(attribute) + "=\"([^\"]*)\"").matcher(field(name));
		return value.find() ? HtmlUtils.htmlUnescape(value.group(1)) : null;
	}

	/** The text of a text area. */
	public String textarea(String name) {
		Matcher text = Pattern.compile("<textarea\\b[^>]*name=\"" + Pattern.quote(name) + "\"[^>]*>([^<]*)</textarea>")
			.matcher(html);
		assertThat(text.find()).as("text area " + name).isTrue();
		return HtmlUtils.htmlUnescape(text.group(1));
	}

	/**
	 * The message a field points to with {@code aria-describedby}, which must follow it
	 * inside the same label; {@code null} when the field points to none.
	 */
	public @Nullable String messageFor(String name) {
		String id = attribute(name, "aria-describedby");
		if (id == null) {
			return null;
		}
		assertThat(attribute(name, "aria-invalid")).as("aria-invalid of " + name).isEqualTo("true");
		Matcher label = Pattern
			.compile(
					"<(input|select|textarea)\\b[^>]*name=\"" + Pattern.quote(name)
							+ "\"(?:(?!</label>).)*?<span[^>]*id=\"" + Pattern.quote(id) + "\"[^>]*>([^<]*)</span>",
					Pattern.DOTALL)
			.matcher(html);
		assertThat(label.find()).as("message " + id + " next to " + name).isTrue();
		return HtmlUtils.htmlUnescape(label.group(2));
	}

}
