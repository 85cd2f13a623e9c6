package dev.parity.site;

import java.io.CharArrayWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.function.Consumer;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import org.jspecify.annotations.Nullable;

import org.springframework.stereotype.Component;
import org.springframework.web.servlet.View;

/**
 * Published pages as everybody who is not signed in sees them, kept by their ETag
 * ({@link PublishedFreshness}): the tag is a digest of everything such a page shows, so a
 * kept page is served again only while it is still what the template would draw. A blog's
 * readers then cost one small query each, whether they revalidate or not.
 */
@Component
class KeptPages {

	private final Cache<String, byte[]> pages = Caffeine.newBuilder()
		.maximumWeight(32L * 1024 * 1024)
		.weigher((String key, byte[] html) -> html.length)
		.build();

	/** The page kept under this tag, or {@code null}. */
	@Nullable View kept(String tag) {
		byte[] html = pages.getIfPresent(tag);
		return html == null ? null : new Kept(html);
	}

	/** Draws the template as usual and keeps the page under this tag. */
	View keeping(View template, String tag) {
		return keeping(template, html -> pages.put(tag, html));
	}

	/**
	 * A view that draws the template as usual and hands the page's bytes to {@code keep}
	 * (any cache of pages).
	 */
	static View keeping(View template, Consumer<byte[]> keep) {
		return new Keeping(template, keep);
	}

	/** A view that writes a page kept before. */
	static View kept(byte[] html) {
		return new Kept(html);
	}

	/** Renders the template into text, hands its bytes to be kept and writes them. */
	private record Keeping(View template, Consumer<byte[]> keep) implements View {

		@Override
		public String getContentType() {
			return Kept.HTML;
		}

		@Override
		public void render(@Nullable Map<String, ?> model, HttpServletRequest request, HttpServletResponse response)
				throws Exception {
			CharArrayWriter text = new CharArrayWriter(1 << 16);
			PrintWriter writer = new PrintWriter(text);
			HttpServletResponseWrapper capture = new HttpServletResponseWrapper(response) {
				@Override
				public PrintWriter getWriter() {
					return writer;
				}

				@Override
				public ServletOutputStream getOutputStream() {
					throw new IllegalStateException("the template writes text");
				}

				@Override
				public void flushBuffer() {
					writer.flush();
				}
			};
			template.render(model, request, capture);
			writer.flush();
			byte[] html = text.toString().getBytes(StandardCharsets.UTF_8);
			keep.accept(html);
			new Kept(html).render(model, request, response);
		}

	}

	/** A kept page. */
	private record Kept(byte[] html) implements View {

		static final String HTML = "text/html;charset=UTF-8";

		@Override
		public String getContentType() {
			return HTML;
		}

		@Override
		public void render(@Nullable Map<String, ?> model, HttpServletRequest request, HttpServletResponse response)
				throws IOException {
			response.setContentType(HTML);
			response.setContentLength(html.length);
			response.getOutputStream().write(html);
		}

	}

}
