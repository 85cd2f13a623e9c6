package dev.parity.run;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.util.Arrays;

import dev.parity.ParityTest;
import dev.parity.TestUploads;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A stored file read back slice by slice gives exactly the bytes uploaded, wherever the
 * slices fall, and a skip moves past bytes without losing or repeating any.
 */
@ParityTest
class StoredFilesTests {

	@Autowired
	MockMvc mvc;

	@Autowired
	JdbcTemplate jdbc;

	@Autowired
	StoredFiles files;

	@Test
	void readsTheUploadedBytesWhateverTheSlices() throws Exception {
		byte[] uploaded = TestUploads.fresh("run-a-thinking-max.json");
		RunId run = new RunId(TestUploads.upload(mvc, uploaded));
		Run.RunFile file = files.find(run, 0).orElseThrow();
		assertThat(file.sizeBytes()).isEqualTo(uploaded.length);
		assertThat(file.sha256()).isEqualTo(Sha256.hex(uploaded));
		// One slice (the whole file in one query), slices that divide it unevenly, and
		// one byte at a time at the end.
		for (int slice : new int[] { StoredFiles.SLICE, 4096, 1000, 7 }) {
			StoredFiles sliced = new StoredFiles(jdbc, slice);
			try (InputStream in = sliced.open(run, file)) {
				ByteArrayOutputStream out = new ByteArrayOutputStream();
				if (slice == 7) {
					out.write(in.readNBytes(uploaded.length - 20));
					for (int b = in.read(); b != -1; b = in.read()) {
						out.write(b);
					}
				}
				else {
					in.transferTo(out);
				}
				assertThat(out.toByteArray()).as("slices of %d bytes", slice).isEqualTo(uploaded);
				assertThat(in.read()).isEqualTo(-1);
			}
		}
	}

	@Test
	void skipsWithinASliceAndPastSlicesWithoutReadingThem() throws Exception {
		byte[] uploaded = TestUploads.fresh("run-e-control.json");
		RunId run = new RunId(TestUploads.upload(mvc, uploaded));
		Run.RunFile file = files.find(run, 0).orElseThrow();
		StoredFiles sliced = new StoredFiles(jdbc, 1000);
		try (InputStream in = sliced.open(run, file)) {
			assertThat(in.skip(2500)).isEqualTo(2500);
			assertThat(in.readNBytes(100)).isEqualTo(Arrays.copyOfRange(uploaded, 2500, 2600));
			assertThat(in.skip(50)).isEqualTo(50);
			assertThat(in.readNBytes(10)).isEqualTo(Arrays.copyOfRange(uploaded, 2650, 2660));
			assertThat(in.skip(uploaded.length)).isEqualTo(uploaded.length - 2660);
			assertThat(in.read()).isEqualTo(-1);
		}
	}

	@Test
	void findsNothingForAnUnknownRunOrPosition() throws Exception {
		RunId run = new RunId(TestUploads.upload(mvc, TestUploads.fresh("run-e-control.json")));
		assertThat(files.find(run, 1)).isEmpty();
		assertThat(files.find(new RunId("zzzzzzzzz0"), 0)).isEmpty();
		assertThat(files.runExists(run)).isTrue();
		assertThat(files.runExists(new RunId("zzzzzzzzz0"))).isFalse();
	}

}
