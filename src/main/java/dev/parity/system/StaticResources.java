package dev.parity.system;

import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.config.annotation.ResourceHandlerRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;
import org.springframework.web.servlet.resource.LiteWebJarsResourceResolver;

/**
 * The static resources, by their own paths only: the browser code ({@code frontend/}:
 * {@code /css/**}, {@code /js/**}, {@code /schema/**}) and the web jars
 * ({@code /webjars/**}, versions resolved by the locator). Boot's default mapping of
 * {@code /**} is off ({@code spring.web.resources.add-mappings=false}): with it, every
 * link a page writes ({@code @{/runs/{id}}}) was looked up as a file on the class path by
 * the resource URL encoding — a jar entry search per link, which made a page of 1,000
 * links spend most of its time there.
 */
@Configuration(proxyBeanMethods = false)
class StaticResources implements WebMvcConfigurer {

	@Override
	public void addResourceHandlers(ResourceHandlerRegistry registry) {
		for (String folder : new String[] { "css", "js", "schema" }) {
			registry.addResourceHandler("/" + folder + "/**").addResourceLocations("classpath:/static/" + folder + "/");
		}
		registry.addResourceHandler("/webjars/**")
			.addResourceLocations("classpath:/META-INF/resources/webjars/")
			.resourceChain(true)
			.addResolver(new LiteWebJarsResourceResolver());
	}

}
