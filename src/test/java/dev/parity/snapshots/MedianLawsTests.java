package dev.parity.snapshots;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import dev.parity.ParityTest;
import dev.parity.TestUploads;
import dev.parity.compare.BootstrapMedians;
import dev.parity.run.Cell;
import dev.parity.run.CellBootstraps;
import dev.parity.run.MedianWindowsRead;
import dev.parity.run.Run;
import dev.parity.run.RunId;
import dev.parity.run.RunRepository;
import dev.parity.stats.MedianLaw;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.event.ApplicationEvents;
import org.springframework.test.context.event.RecordApplicationEvents;
import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A run's median laws are computed while its upload is read, from the windows of its
 * cells as they are read, ahead of the comparisons asking for them, and are the very laws
 * its samples give: a comparison finds the same figures whether they were kept, computed
 * from the stored windows or from the samples.
 */
@ParityTest
@RecordApplicationEvents
class MedianLawsTests {

	@Autowired
	ApplicationEvents events;

	@Autowired
	MockMvc mvc;

	@Autowired
	MedianLaws laws;

	@Autowired
	CellBootstraps bootstraps;

	@Autowired
	RunRepository runs;

	/** The control run with 250 ttft samples in its first cell and 101 in its second. */
	private static byte[] withSamples() {
		ObjectNode document = (ObjectNode) TestUploads.tree(TestUploads.fresh("run-e-control.json"));
		ArrayNode cells = (ArrayNode) document.get("cells");
		SplittableRandom random = new SplittableRandom(3);
		for (int c = 0; c < 2; c++) {
			ArrayNode samples = ((ObjectNode) cells.get(c)).putArray("samples");
			for (int i = 0; i < (c == 0 ? 250 : 101); i++) {
				samples.addObject().put("ttft_s", Math.round(1000 * Math.exp(0.2 * random.nextGaussian())) / 1000.0);
			}
		}
		return JsonMapper.builder().build().writeValueAsBytes(document);
	}

	@Test
	void everyWindowStoredWasHandedOnAsTheUploadReadIt() throws Exception {
		String id = TestUploads.upload(mvc, withSamples());
		List<CellBootstraps.Key> read = events.stream(MedianWindowsRead.class)
			.filter(event -> event.run().value().equals(id))
			.flatMap(event -> event.windows()
				.stream()
				.map(row -> new CellBootstraps.Key(id, row.anchor(), row.metric())))
			.toList();
		assertThat(read).hasSize(2)
			.containsExactlyInAnyOrderElementsOf(bootstraps.find(List.of(new RunId(id))).keySet());
	}

	@Test
	void aRunsLawsAreKeptAfterItsUploadAndAreThoseOfItsSamples() throws Exception {
		String id = TestUploads.upload(mvc, withSamples());
		Map<CellBootstraps.Key, CellBootstraps.Window> windows = bootstraps.find(List.of(new RunId(id)));
		assertThat(windows).isNotEmpty();
		// Computed on their own thread: a test may wait for them (a comparison never
		// does; it computes what is not kept yet).
		Instant until = Instant.now().plus(Duration.ofSeconds(20));
		while (!windows.keySet().stream().allMatch(key -> laws.kept(key) != null) && Instant.now().isBefore(until)) {
			Thread.sleep(20);
		}
		Run run = runs.find(new RunId(id)).orElseThrow();
		BootstrapMedians kept = laws.medians(Map.of());
		int compared = 0;
		for (Cell cell : run.cells()) {
			for (CellBootstraps.Key key : windows.keySet()) {
				if (!key.anchor().equals(cell.anchor())) {
					continue;
				}
				assertThat(laws.kept(key)).as("kept %s", key).isNotNull();
				MedianLaw fromSamples = BootstrapMedians.FROM_SAMPLES.of(run, cell, key.metric());
				MedianLaw found = kept.of(run, cell, key.metric());
				assertThat(found).isSameAs(laws.kept(key));
				assertThat(found.values()).as("%s", key).isEqualTo(fromSamples.values());
				for (double x : fromSamples.values()) {
					assertThat(found.atOrBelow(x)).isEqualTo(fromSamples.atOrBelow(x));
				}
				compared++;
			}
		}
		assertThat(compared).isEqualTo(windows.size()).isEqualTo(2);
	}

}
