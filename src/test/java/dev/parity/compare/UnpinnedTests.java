package dev.parity.compare;

import org.junit.jupiter.api.Test;

import static dev.parity.compare.TestRuns.aRun;
import static org.assertj.core.api.Assertions.assertThat;

class UnpinnedTests {

	private final Unpinned rule = new Unpinned();

	@Test
	void annotatesARunWithOnlyARevision() {
		var flags = rule.check(TestRuns.context(aRun().revision("main").unpinned().cell(c -> c.decode(70)).document(),
				CompareSettings.defaults()));

		assertThat(flags).singleElement().satisfies(flag -> {
			assertThat(flag.rule()).isEqualTo("unpinned");
			assertThat(flag.isAnnotation()).isTrue();
			assertThat(flag.message()).isEqualTo(
					"only revision 'main' recorded, no resolved commit: main moves; this run cannot claim a checkpoint — pin the commit");
		});
	}

	@Test
	void annotatesARunWithoutAnyRevision() {
		var flags = rule.check(TestRuns.context(aRun().revision(null).unpinned().cell(c -> c.decode(70)).document(),
				CompareSettings.defaults()));

		assertThat(flags).singleElement()
			.satisfies(flag -> assertThat(flag.message()).startsWith("no revision and no resolved commit"));
	}

	@Test
	void staysQuietOnAPinnedRun() {
		assertThat(rule.check(TestRuns.context(aRun().cell(c -> c.decode(70)).document(), CompareSettings.defaults())))
			.isEmpty();
	}

}
