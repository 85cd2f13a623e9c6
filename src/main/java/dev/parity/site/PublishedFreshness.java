package dev.parity.site;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Optional;
import java.util.function.Supplier;

import dev.parity.record.Publication;
import dev.parity.record.PublicationNotFoundException;
import dev.parity.record.PublicationRecordState;
import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

import org.springframework.stereotype.Component;
import org.springframework.web.context.request.ServletWebRequest;

/**
 * {@code ETag} and {@code Cache-Control} for published pages, their exports, embeds and
 * images, so that a CDN or a browser can keep them and ask again cheaply
 * ({@code If-None-Match} → 304). The tag is a digest of everything they show that can
 * change after publication — the record (retraction, supersession, caveats, hypothesis
 * statuses, retracted runs: {@link PublicationRecordState}), the live-comparison banner —
 * and of this server's start (so a new release, with other templates or defaults, never
 * answers 304 for a page it would draw differently), and of who asks: a signed-in user's
 * page holds their forms, so it is theirs alone ({@code private}). When reading needs a
 * sign-in, every representation is {@code private} ({@link SharedCaching}).
 */
@Component
class PublishedFreshness {

	/** Anybody may keep a public representation for a minute, then must ask again. */
	static final String PUBLIC = "public, max-age=60, must-revalidate";

	/**
	 * A kept page of a record that may change at any time (a comparison): kept, asked
	 * again before each use.
	 */
	static final String KEPT = "public, no-cache";

	/** A signed-in user's page: their browser keeps it and asks again every time. */
	static final String PRIVATE = SharedCaching.PRIVATE;

	/**
	 * The request attribute holding the tag of a representation that is the same for
	 * everybody (public).
	 */
	static final String SHARED_TAG = PublishedFreshness.class.getName() + ".sharedTag";

	private final PublicationRecordState records;

	private final LiveDifferences live;

	private final SharedCaching caching;

	private final String release;

	PublishedFreshness(PublicationRecordState records, LiveDifferences live, SharedCaching caching) {
		this.records = records;
		this.live = live;
		this.caching = caching;
		String version = PublishedFreshness.class.getPackage().getImplementationVersion();
		this.release = (version == null ? "dev" : version) + "@" + Instant.now().toEpochMilli();
	}

	/**
	 * Sets {@code ETag} and {@code Cache-Control} for one representation of a publication
	 * and tells whether the client's copy is still current (then the answer is a 304
	 * already and nothing else must be written).
	 * @param representation which representation ({@code page}, {@code export.md},
	 * {@code embed}, …)
	 * @param personal whether this representation differs by signed-in user (the page
	 * does; exports do not)
	 * @param publication loads the publication, when the live-comparison banner is not
	 * known yet
	 * @throws PublicationNotFoundException when there is no such publication
	 */
	boolean notModified(String publicationId, String representation, boolean personal, ServletWebRequest request,
			Supplier<Publication> publication) {
		String state = records.of(publicationId).orElseThrow(() -> new PublicationNotFoundException(publicationId));
		Optional<String> known = live.known(publicationId);
		String differs = known != null ? known.orElse(null) : live.of(publication.get());
		differs = differs == null ? "same" : differs;
		String audience = personal ? audience(request.getRequest()) : null;
		// Weak: the page is sent gzip-compressed to a client that accepts it (Tomcat
		// compresses no response with a
		// strong tag), and a weak tag is what a representation that differs in its
		// encoding only may share.
		String tag = "W/\"" + digest(release + "|" + representation + "|" + state + "|" + differs + "|"
				+ (audience == null ? "public" : audience)) + "\"";
		caching.write(request.getResponse(), audience == null ? caching.forEverybody(PUBLIC) : PRIVATE);
		if (personal) {
			// Who asks shapes the page: a cache keeps one copy per credentials.
			SharedCaching.vary(request.getResponse());
		}
		if (audience == null) {
			request.getRequest().setAttribute(SHARED_TAG, tag);
		}
		return request.checkNotModified(tag);
	}

	/**
	 * Sets {@code ETag} ({@code state} and this server's start) and
	 * {@code Cache-Control: public, no-cache} for a page that everybody who is not signed
	 * in sees alike and that is kept by everything it shows ({@code state}), and tells
	 * whether the client's copy is still current (then the answer is a 304 already).
	 */
	boolean notModifiedKept(String state, ServletWebRequest request) {
		String tag = "W/\"" + digest(release + "|kept|" + state) + "\"";
		caching.write(request.getResponse(), caching.forEverybody(KEPT));
		// A signed-in visitor is drawn another page: a cache keeps one copy per
		// credentials.
		SharedCaching.vary(request.getResponse());
		return request.checkNotModified(tag);
	}

	/**
	 * Who a personal page is drawn for: nobody (anyone may share it), or this session's
	 * user.
	 */
	private static @Nullable String audience(HttpServletRequest request) {
		var session = request.getSession(false);
		if (request.getUserPrincipal() == null && session == null) {
			return null;
		}
		return (request.getUserPrincipal() == null ? "" : request.getUserPrincipal().getName()) + "|"
				+ (session == null ? "" : session.getId());
	}

	private static String digest(String text) {
		try {
			byte[] hash = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
			return HexFormat.of().formatHex(hash, 0, 16);
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
