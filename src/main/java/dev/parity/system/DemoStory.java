package dev.parity.system;

import java.io.IOException;
import java.util.List;

import dev.parity.ingest.RunIngest;
import dev.parity.run.RunWriter.Stored;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.core.annotation.Order;
import org.springframework.core.io.ClassPathResource;
import org.springframework.stereotype.Component;

/**
 * With {@code --parity.demo=true}, loads a small example story (a published reference, a
 * confounded first try and a control run) so that a newcomer sees real-looking pages at
 * once. Loading it again changes nothing: the same documents resolve to the runs stored
 * the first time.
 */
@Component
@Order(10)
@ConditionalOnBooleanProperty("parity.demo")
class DemoStory implements ApplicationRunner {

	private static final Logger log = LoggerFactory.getLogger(DemoStory.class);

	private static final List<String> DOCUMENTS = List.of("demo-reference.json", "demo-first-try.json",
			"demo-control.json");

	private final RunIngest ingest;

	DemoStory(RunIngest ingest) {
		this.ingest = ingest;
	}

	@Override
	public void run(ApplicationArguments args) throws IOException {
		for (String name : DOCUMENTS) {
			byte[] bytes = new ClassPathResource("demo/" + name).getContentAsByteArray();
			Stored stored = ingest.ingestDocument(bytes, name, "demo");
			log.info("Demo story: {} is run /runs/{}{}", name, stored.id(), stored.created() ? "" : " (stored before)");
		}
	}

}
