package dev.parity.control.web;

import io.swagger.v3.core.converter.AnnotatedType;
import io.swagger.v3.core.converter.ModelConverters;
import io.swagger.v3.oas.models.Components;
import org.springdoc.core.customizers.OpenApiCustomizer;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The schemas of the OpenAPI document that no endpoint's type brings in by itself: a
 * comparison's headline (the items of a declared control's {@code headlines}) and its
 * ratio interval.
 */
@Configuration(proxyBeanMethods = false)
class ControlApiDocumentation {

	@Bean
	OpenApiCustomizer headlineSchemas() {
		return api -> {
			if (api.getComponents() == null) {
				api.setComponents(new Components());
			}
			ModelConverters.getInstance()
				.readAll(new AnnotatedType(ControlApiController.HeadlineSchema.class))
				.forEach(api.getComponents()::addSchemas);
		};
	}

}
