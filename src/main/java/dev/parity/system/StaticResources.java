package dev.parity.system;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URL;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.autoconfigure.web.WebProperties;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.AbstractResource;
import org.springframework.core.io.Resource;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpHeaders;
import org.springframework.web.servlet.config.annotation.ResourceChainRegistration;
import org.springframework.web.servlet.config.annotation.ResourceHandlerRegistration;
import org.springframework.web.servlet.config.annotation.ResourceHandlerRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;
import org.springframework.web.servlet.resource.AbstractResourceResolver;
import org.springframework.web.servlet.resource.ContentVersionStrategy;
import org.springframework.web.servlet.resource.HttpResource;
import org.springframework.web.servlet.resource.LiteWebJarsResourceResolver;
import org.springframework.web.servlet.resource.ResourceResolverChain;
import org.springframework.web.servlet.resource.VersionResourceResolver;

/**
 * The static resources, by their own paths only: the browser code ({@code frontend/}:
 * {@code /css/**}, {@code /js/**}, {@code /schema/**}) and the web jars
 * ({@code /webjars/**}, versions resolved by the locator). Boot's default mapping of
 * {@code /**} is off ({@code spring.web.resources.add-mappings=false}): with it, every
 * link a page writes ({@code @{/runs/{id}}}) was looked up as a file on the class path by
 * the resource URL encoding — a jar entry search per link, which made a page of 1,000
 * links spend most of its time there.
 * <p>
 * Fingerprints ({@code spring.web.resources.chain.strategy.content.*}): a page's
 * {@code @{/js/run-charts.js}} is written as {@code /js/run-charts-<md5 of its
 * bytes>.js} (Spring's {@link VersionResourceResolver} with its content strategy, and the
 * {@code ResourceUrlEncodingFilter} Boot registers for Thymeleaf). A fingerprinted URL
 * names those bytes forever: {@code Cache-Control: public, max-age=31536000, immutable}
 * ({@code /css}, {@code /js}, {@code /webjars}; the schema keeps its one URL). The same
 * file by its plain URL is served too, with {@code no-cache} and its content hash as
 * {@code ETag}: an ES module's relative {@code import './chart-style.js'} resolves
 * against the module's URL to the plain URL, so an imported module is revalidated (a 304
 * when unchanged) and never stale after a release; the imports are not rewritten.
 */
@Configuration(proxyBeanMethods = false)
class StaticResources implements WebMvcConfigurer {

	/** A fingerprinted URL's bytes never change: kept a year, never asked again. */
	static final CacheControl FINGERPRINTED = CacheControl.maxAge(Duration.ofDays(365)).cachePublic().immutable();

	/** A plain URL: kept, but asked again (If-None-Match) before each use. */
	static final CacheControl PLAIN = CacheControl.noCache();

	private final WebProperties.Resources.Chain chain;

	private final ContentVersionStrategy content = new ContentVersionStrategy();

	/** Content hashes by resource and modification time (files change in development). */
	private final Map<String, String> hashes = new ConcurrentHashMap<>();

	StaticResources(WebProperties web) {
		this.chain = web.getResources().getChain();
	}

	@Override
	public void addResourceHandlers(ResourceHandlerRegistry registry) {
		for (String folder : new String[] { "css", "js" }) {
			fingerprinted(registry.addResourceHandler("/" + folder + "/**")
				.addResourceLocations("classpath:/static/" + folder + "/"));
		}
		// The run document's schema keeps its one URL (people link it): revalidated only.
		registry.addResourceHandler("/schema/**")
			.addResourceLocations("classpath:/static/schema/")
			.setCacheControl(PLAIN)
			.setEtagGenerator(this::weakTag);
		ResourceHandlerRegistration webjars = registry.addResourceHandler("/webjars/**")
			.addResourceLocations("classpath:/META-INF/resources/webjars/");
		fingerprinted(webjars).addResolver(new LiteWebJarsResourceResolver());
	}

	/**
	 * Plain URLs revalidated by their content hash; with the content strategy on, the
	 * fingerprinted URLs resolved and kept a year.
	 */
	private ResourceChainRegistration fingerprinted(ResourceHandlerRegistration handler) {
		handler.setCacheControl(PLAIN).setEtagGenerator(this::weakTag);
		ResourceChainRegistration resources = handler.resourceChain(chain.isCache());
		WebProperties.Resources.Chain.Strategy.Content strategy = chain.getStrategy().getContent();
		if (strategy.isEnabled()) {
			resources.addResolver(new Immutable())
				.addResolver(new VersionResourceResolver().addContentVersionStrategy(strategy.getPaths()));
		}
		return resources;
	}

	/**
	 * The resource's ETag: its content hash, weak — the server compresses what it sends
	 * (the bytes differ by encoding), and Tomcat compresses no answer with a strong tag.
	 */
	private @Nullable String weakTag(Resource resource) {
		String hash = hash(resource);
		return hash == null ? null : "W/\"" + hash + "\"";
	}

	/** The resource's content hash (the one its fingerprint carries). */
	private @Nullable String hash(Resource resource) {
		try {
			String key = resource.getDescription() + "@" + resource.lastModified();
			return hashes.computeIfAbsent(key, k -> content.getResourceVersion(resource));
		}
		catch (IOException ex) {
			return null;
		}
	}

	/**
	 * Marks a resource found by its fingerprinted URL (the version resolver answers it as
	 * an {@link HttpResource} carrying its ETag) as kept a year.
	 */
	private static final class Immutable extends AbstractResourceResolver {

		@Override
		protected @Nullable Resource resolveResourceInternal(@Nullable HttpServletRequest request, String requestPath,
				List<? extends Resource> locations, ResourceResolverChain chain) {
			Resource resource = chain.resolveResource(request, requestPath, locations);
			return resource instanceof HttpResource versioned ? new KeptAYear(resource, versioned) : resource;
		}

		@Override
		protected @Nullable String resolveUrlPathInternal(String resourceUrlPath, List<? extends Resource> locations,
				ResourceResolverChain chain) {
			return chain.resolveUrlPath(resourceUrlPath, locations);
		}

	}

	/** A fingerprinted resource: its bytes, its ETag, and a year's Cache-Control. */
	private static final class KeptAYear extends AbstractResource implements HttpResource {

		private final Resource resource;

		private final HttpHeaders headers;

		KeptAYear(Resource resource, HttpResource versioned) {
			this.resource = resource;
			this.headers = new HttpHeaders();
			this.headers.putAll(versioned.getResponseHeaders());
			this.headers.setCacheControl(FINGERPRINTED);
			String tag = this.headers.getETag();
			if (tag != null && tag.startsWith("\"")) {
				// Weak: the server compresses what it sends, which a strong tag forbids.
				this.headers.setETag("W/" + tag);
			}
		}

		@Override
		public HttpHeaders getResponseHeaders() {
			return headers;
		}

		@Override
		public boolean exists() {
			return resource.exists();
		}

		@Override
		public boolean isReadable() {
			return resource.isReadable();
		}

		@Override
		public URL getURL() throws IOException {
			return resource.getURL();
		}

		@Override
		public URI getURI() throws IOException {
			return resource.getURI();
		}

		@Override
		public File getFile() throws IOException {
			return resource.getFile();
		}

		@Override
		public long contentLength() throws IOException {
			return resource.contentLength();
		}

		@Override
		public long lastModified() throws IOException {
			return resource.lastModified();
		}

		@Override
		public Resource createRelative(String relativePath) throws IOException {
			return resource.createRelative(relativePath);
		}

		@Override
		public @Nullable String getFilename() {
			return resource.getFilename();
		}

		@Override
		public String getDescription() {
			return resource.getDescription();
		}

		@Override
		public InputStream getInputStream() throws IOException {
			return resource.getInputStream();
		}

	}

}
