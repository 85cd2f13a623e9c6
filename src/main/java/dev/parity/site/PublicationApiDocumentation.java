package dev.parity.site;

import io.swagger.v3.core.converter.AnnotatedType;
import io.swagger.v3.core.converter.ModelConverters;
import io.swagger.v3.oas.models.Components;
import org.springdoc.core.customizers.OpenApiCustomizer;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The schemas of the OpenAPI document that no endpoint's type brings in by itself: what a
 * publication of several contenders froze (one of the shapes of a publication's
 * {@code comparison}).
 */
@Configuration(proxyBeanMethods = false)
class PublicationApiDocumentation {

	@Bean
	OpenApiCustomizer frozenContendersSchema() {
		return api -> {
			if (api.getComponents() == null) {
				api.setComponents(new Components());
			}
			ModelConverters.getInstance(true)
				.readAll(new AnnotatedType(PublicationAnswers.FrozenContenders.class))
				.forEach((name, schema) -> {
					if (api.getComponents().getSchemas() == null
							|| !api.getComponents().getSchemas().containsKey(name)) {
						api.getComponents().addSchemas(name, schema);
					}
				});
		};
	}

}
