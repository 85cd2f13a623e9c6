package dev.parity.ingest.harness;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class InputFilesTests {

	@Test
	void unzipsUploadsRecognisedByContentKeepingEntryPaths() {
		InputFile zip = Samples.zip("results.bin", List.of(InputFile.of("sweep/SERVE--a=1/run=0.json", "{}"),
				InputFile.of("sweep/summary.csv", "a,b\n1,2\n")));

		List<InputFile> files = InputFiles.expand(List.of(zip, InputFile.of("notes.txt", "hello")));

		assertThat(files).extracting(InputFile::name)
			.containsExactly("sweep/SERVE--a=1/run=0.json", "sweep/summary.csv", "notes.txt");
		assertThat(new String(files.get(1).content(), StandardCharsets.UTF_8)).isEqualTo("a,b\n1,2\n");
		assertThat(files.get(0).baseName()).isEqualTo("run=0.json");
		assertThat(files.get(0).directory()).isEqualTo("sweep/SERVE--a=1");
	}

	@Test
	void skipsDirectoryEntries() throws Exception {
		var bytes = new ByteArrayOutputStream();
		try (var zip = new ZipOutputStream(bytes)) {
			zip.putNextEntry(new ZipEntry("run/"));
			zip.closeEntry();
			zip.putNextEntry(new ZipEntry("run/run=0.json"));
			zip.write("{}".getBytes(StandardCharsets.UTF_8));
			zip.closeEntry();
		}

		List<InputFile> files = InputFiles.expand(List.of(new InputFile("run.zip", bytes.toByteArray())));

		assertThat(files).extracting(InputFile::name).containsExactly("run/run=0.json");
	}

	@Test
	void leavesAFileNamedZipThatIsNotOneAlone() {
		InputFile notAZip = InputFile.of("results.zip", "{\"completed\": 1}");

		assertThat(InputFiles.expand(List.of(notAZip))).containsExactly(notAZip);
	}

	@Test
	void rejectsTooManyEntries() {
		InputFile zip = Samples.zip("many.zip",
				List.of(InputFile.of("a.json", "{}"), InputFile.of("b.json", "{}"), InputFile.of("c.json", "{}")));

		assertThatThrownBy(() -> InputFiles.expand(List.of(zip), 2, 1_000)).isInstanceOf(ImportRejected.class)
			.hasMessageContaining("many.zip")
			.hasMessageContaining("more than 2 files");
	}

	@Test
	void rejectsZipsThatInflateBeyondTheLimitCountingWhatIsInflated() {
		InputFile zip = Samples.zip("bomb.zip", List.of(InputFile.of("big.json", "x".repeat(5_000))));

		assertThat(zip.content().length).isLessThan(200);
		assertThatThrownBy(() -> InputFiles.expand(List.of(zip), 10, 4_096)).isInstanceOf(ImportRejected.class)
			.hasMessageContaining("bomb.zip")
			.hasMessageContaining("inflate to more than 4096 bytes");
	}

	@Test
	void rejectsACorruptZipNamingIt() {
		byte[] truncated = Arrays
			.copyOf(Samples.zip("x.zip", List.of(InputFile.of("a.json", "{\"a\": 1}".repeat(50)))).content(), 40);

		assertThatThrownBy(() -> InputFiles.expand(List.of(new InputFile("upload.zip", truncated))))
			.isInstanceOf(ImportRejected.class)
			.hasMessageStartingWith("upload.zip: ");
	}

	@Test
	void statesTheDocumentedLimits() {
		assertThat(InputFiles.MAX_ENTRIES).isEqualTo(10_000);
		assertThat(InputFiles.MAX_TOTAL_BYTES).isEqualTo(InputFiles.budgetFor(Runtime.getRuntime().maxMemory()));
	}

	@Test
	void theInflationBudgetIsAnEighthOfTheHeapAndAtMostOneGibibyte() {
		assertThat(InputFiles.budgetFor(512L << 20)).isEqualTo(64L << 20);
		assertThat(InputFiles.budgetFor(4L << 30)).isEqualTo(512L << 20);
		assertThat(InputFiles.budgetFor(64L << 30)).isEqualTo(1L << 30);
	}

	@Test
	void anEntryOverTheBudgetIsRefusedWhateverItsHeaderClaims() throws Exception {
		var bytes = new ByteArrayOutputStream();
		try (var zip = new ZipOutputStream(bytes)) {
			var entry = new ZipEntry("zeros.json");
			zip.putNextEntry(entry);
			zip.write(new byte[3 << 20]);
			zip.closeEntry();
		}

		assertThatThrownBy(
				() -> InputFiles.expand(List.of(new InputFile("zeros.zip", bytes.toByteArray())), 10, 2L << 20))
			.isInstanceOf(ImportRejected.class)
			.hasMessageStartingWith("zeros.zip: the uploaded zips inflate to more than 2 MiB");
	}

}
