package dev.parity.system;

import java.util.List;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.servers.Server;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The title and description of the OpenAPI document served at {@code /api/openapi} (UI at
 * {@code /api/docs}).
 */
@Configuration(proxyBeanMethods = false)
class ApiDocumentation {

	/**
	 * The document, with one server: {@code parity.base-url}, or {@code /} (relative to
	 * where the document was read) when none is configured — never the request's
	 * {@code Host} header.
	 */
	@Bean
	OpenAPI parityApi(@Value("${parity.base-url:}") String baseUrl) {
		return new OpenAPI().servers(List.of(new Server().url(baseUrl.isBlank() ? "/" : baseUrl.strip())))
			.info(new Info().title("Parity API")
				.version("1")
				.description(
						"Benchmark runs with their provenance, comparisons with a flag next to every number, and the record "
								+ "of caveats and publications. Reading is public; writing needs HTTP Basic or a bearer token "
								+ "(Authorization: Bearer prt_…) of an uploader."));
	}

}
