package dev.parity.history;

import java.util.List;

import tools.jackson.databind.node.ObjectNode;

/** {@link NightlyRuns} for tests in other packages (the browser tests). */
public final class NightlyRunsAccess {

	private NightlyRunsAccess() {
	}

	public static List<ObjectNode> series(String system) {
		return NightlyRuns.series(system);
	}

}
