package dev.parity.web;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.parity.ParityTest;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code src/docs/api.md} lists every endpoint of the API ({@code /api/…}) the
 * controllers map, each method and path once, and no endpoint they do not map.
 */
@ParityTest
class ApiDocumentationTests {

	private static final Path PAGE = Path.of("src/docs/api.md");

	/** A row of the page's tables: {@code | `GET` | `/api/runs` | …}. */
	private static final Pattern ROW = Pattern.compile("(?m)^\\| `([A-Z]+)` \\| `(/api/[^`]*)` \\|");

	@Autowired
	@Qualifier("requestMappingHandlerMapping")
	RequestMappingHandlerMapping mappings;

	@Test
	void theApiPageListsEveryEndpointTheControllersMap() throws IOException {
		Set<String> mapped = new TreeSet<>();
		for (RequestMappingInfo info : mappings.getHandlerMethods().keySet()) {
			Set<RequestMethod> methods = info.getMethodsCondition().getMethods();
			for (String path : info.getPatternValues()) {
				if (!path.startsWith("/api/")) {
					continue;
				}
				if (methods.isEmpty()) {
					mapped.add("ANY " + path);
				}
				methods.forEach(method -> mapped.add(method.name() + " " + path));
			}
		}
		Set<String> documented = new TreeSet<>();
		Matcher row = ROW.matcher(Files.readString(PAGE, StandardCharsets.UTF_8));
		while (row.find()) {
			assertThat(documented.add(row.group(1) + " " + row.group(2)))
				.as("listed once: %s %s", row.group(1), row.group(2))
				.isTrue();
		}
		assertThat(documented).as("the endpoints %s lists", PAGE).containsExactlyElementsOf(mapped);
	}

}
