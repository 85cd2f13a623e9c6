package dev.parity.history;

import java.util.List;

import dev.parity.ParityTest;
import dev.parity.TestUploads;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The baseline a verdict will most likely have, known before its series is brought up to
 * date (its comparison is started with it): the one given, else the run before it among
 * the series' runs, which is the baseline the verdict then picks, whatever order the runs
 * were uploaded in.
 */
@ParityTest
class LikelyBaselineTests {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	@Autowired
	MockMvc mvc;

	@Autowired
	Verdicts verdicts;

	@Test
	void theLikelyBaselineIsTheOneTheVerdictPicks() throws Exception {
		List<ObjectNode> nights = NightlyRuns.series("likely-baseline-box").subList(0, 4);
		// Uploaded out of order: the third night before the second.
		String first = TestUploads.upload(mvc, JSON.writeValueAsBytes(nights.get(0)));
		String third = TestUploads.upload(mvc, JSON.writeValueAsBytes(nights.get(2)));
		String second = TestUploads.upload(mvc, JSON.writeValueAsBytes(nights.get(1)));
		String fourth = TestUploads.upload(mvc, JSON.writeValueAsBytes(nights.get(3)));

		assertThat(verdicts.likelyBaseline(first, null)).isNull();
		assertThat(verdicts.likelyBaseline(second, "auto")).isEqualTo(first);
		assertThat(verdicts.likelyBaseline(third, null)).isEqualTo(second);
		assertThat(verdicts.likelyBaseline(fourth, null)).isEqualTo(third);
		assertThat(verdicts.likelyBaseline(fourth, first)).isEqualTo(first);
		for (String run : List.of(second, third, fourth)) {
			assertThat(verdicts.verdict(run, null).baseline()).as(run).isEqualTo(verdicts.likelyBaseline(run, null));
		}
		assertThat(verdicts.verdict(first, null).status()).isEqualTo("no-baseline");
	}

}
