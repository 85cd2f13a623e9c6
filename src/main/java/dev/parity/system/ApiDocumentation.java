package dev.parity.system;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The title and description of the OpenAPI document served at {@code /api/openapi} (UI at {@code /api/docs}).
 */
@Configuration(proxyBeanMethods = false)
class ApiDocumentation {

	@Bean
	OpenAPI parityApi() {
		return new OpenAPI().info(new Info().title("Parity API")
			.version("1")
			.description("Benchmark runs with their provenance, comparisons with a flag next to every number, and the record "
					+ "of caveats and publications. Reading is public; writing needs HTTP Basic or a bearer token "
					+ "(Authorization: Bearer prt_…) of an uploader."));
	}

}
