package dev.parity;

import org.junit.jupiter.api.Test;

import org.springframework.modulith.core.ApplicationModules;

/** The feature packages depend on each other one way only, and only through each other's top-level API. */
class ModularityTests {

	@Test
	void modulesHaveNoCyclesAndUseOnlyEachOthersApi() {
		ApplicationModules.of(ParityApplication.class).verify();
	}

}
