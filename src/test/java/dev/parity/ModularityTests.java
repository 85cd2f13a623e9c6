package dev.parity;

import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.modulith.ApplicationModule;
import org.springframework.modulith.core.ApplicationModules;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The feature packages depend on each other only as each one's {@code package-info}
 * declares ({@code @ApplicationModule(allowedDependencies = ...)}), one way, and only
 * through each other's top-level API.
 */
class ModularityTests {

	private static final ApplicationModules MODULES = ApplicationModules.of(ParityApplication.class);

	@Test
	void modulesUseOnlyTheDependenciesTheyDeclareAndEachOthersApi() {
		MODULES.verify();
	}

	@Test
	void everyModuleDeclaresWhatItMayDependOn() {
		List<String> undeclared = MODULES.stream()
			.filter(module -> packageOf(module).getAnnotation(ApplicationModule.class) == null)
			.map(org.springframework.modulith.core.ApplicationModule::getName)
			.toList();
		assertThat(undeclared).as("modules without @ApplicationModule(allowedDependencies = ...) in package-info")
			.isEmpty();
	}

	@Test
	void runsAndTheAuditTrailDependOnNoOtherModule() {
		for (String name : List.of("run", "audit")) {
			assertThat(packageOf(MODULES.getModuleByName(name).orElseThrow()).getAnnotation(ApplicationModule.class)
				.allowedDependencies()).as(name).isEmpty();
		}
	}

	private static Package packageOf(org.springframework.modulith.core.ApplicationModule module) {
		String name = module.getBasePackage().getName();
		try {
			return Class.forName(name + ".package-info").getPackage();
		}
		catch (ClassNotFoundException ex) {
			throw new AssertionError("module " + module.getName() + " has no package-info.java", ex);
		}
	}

}
