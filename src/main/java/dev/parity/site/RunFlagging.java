package dev.parity.site;

import java.util.List;
import java.util.Map;

import dev.parity.run.Run;

import org.springframework.stereotype.Component;

/**
 * The run checks of a run, computed when shown with the thresholds in force.
 */
@Component
class RunFlagging {

	/** Run-level flags, and cell-level flags by cell anchor. */
	record Flags(List<RunPage.PageFlag> run, Map<String, List<RunPage.PageFlag>> cells) {
	}

	Flags check(Run run) {
		return new Flags(List.of(), Map.of());
	}

}
