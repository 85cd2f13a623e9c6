package dev.parity.ingest;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.CRC32;
import java.util.zip.Deflater;
import java.util.zip.ZipInputStream;

import dev.parity.ParityTest;
import dev.parity.TestUploads;
import dev.parity.ingest.harness.InputFiles;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.mock.web.MockMultipartFile;
import org.springframework.test.web.servlet.MockMvc;

import static dev.parity.TestUploads.PASSWORD;
import static dev.parity.TestUploads.USER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.multipart;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * A zip bomb (a small zip whose entry inflates to 900 MiB of zeros) is refused naming the
 * zip, before what it inflates to can fill the heap, and nothing is stored: the budget is
 * a fraction of the heap this JVM has.
 */
@ParityTest
class InflationBudgetTests {

	/**
	 * 900 MiB, or more than the budget if this JVM's heap is large enough for 900 MiB to
	 * fit in it.
	 */
	private static final long INFLATED = Math.max(900L << 20, InputFiles.MAX_TOTAL_BYTES + (1 << 20));

	/** The bomb as {@code zip} makes it, its sizes declared in the entry's header. */
	private static byte[] bomb;

	/**
	 * The bomb with its sizes left out of the entry's header (given after the data, as
	 * streaming zippers do).
	 */
	private static byte[] undeclared;

	@Autowired
	MockMvc mvc;

	@Autowired
	JdbcClient jdbc;

	@BeforeAll
	static void makeTheBomb() {
		bomb = zipOfZeros("results/run=0.json", INFLATED, true);
		undeclared = zipOfZeros("results/run=0.json", INFLATED, false);
	}

	/**
	 * A zip of one entry of {@code size} zeros, deflated as tightly as deflate goes
	 * (about 1,000 to 1): one megabyte of zeros deflated and flushed, that segment
	 * repeated, the zip's records written around it, in a fraction of the time deflating
	 * 900 MiB takes.
	 * @param declared whether the entry's header states its sizes (else a data descriptor
	 * after the data does)
	 */
	static byte[] zipOfZeros(String name, long size, boolean declared) {
		int chunk = 1 << 20;
		Deflater deflater = new Deflater(Deflater.BEST_COMPRESSION, true);
		deflater.setInput(new byte[chunk]);
		byte[] buffer = new byte[64 << 10];
		byte[] segment = Arrays.copyOf(buffer, deflater.deflate(buffer, 0, buffer.length, Deflater.SYNC_FLUSH));
		deflater.end();
		long chunks = (size + chunk - 1) / chunk;
		CRC32 crc = new CRC32();
		byte[] zeros = new byte[chunk];
		ByteArrayOutputStream deflated = new ByteArrayOutputStream();
		for (long i = 0; i < chunks; i++) {
			crc.update(zeros);
			deflated.writeBytes(segment);
		}
		deflated.writeBytes(new byte[] { 3, 0 }); // the final block, empty
		byte[] data = deflated.toByteArray();
		byte[] entry = name.getBytes(StandardCharsets.UTF_8);
		int inflated = Math.toIntExact(chunks * chunk);
		ByteBuffer zip = ByteBuffer.allocate(data.length + 128 + 2 * entry.length).order(ByteOrder.LITTLE_ENDIAN);
		zip.putInt(0x04034b50)
			.putShort((short) 20)
			.putShort((short) (declared ? 0 : 8))
			.putShort((short) 8)
			.putInt(0)
			.putInt(declared ? (int) crc.getValue() : 0)
			.putInt(declared ? data.length : 0)
			.putInt(declared ? inflated : 0)
			.putShort((short) entry.length)
			.putShort((short) 0)
			.put(entry)
			.put(data);
		if (!declared) {
			zip.putInt(0x08074b50).putInt((int) crc.getValue()).putInt(data.length).putInt(inflated);
		}
		int central = zip.position();
		zip.putInt(0x02014b50)
			.putShort((short) 20)
			.putShort((short) 20)
			.putShort((short) (declared ? 0 : 8))
			.putShort((short) 8)
			.putInt(0)
			.putInt((int) crc.getValue())
			.putInt(data.length)
			.putInt(inflated)
			.putShort((short) entry.length)
			.putShort((short) 0)
			.putShort((short) 0)
			.putShort((short) 0)
			.putShort((short) 0)
			.putInt(0)
			.putInt(0)
			.put(entry);
		int end = zip.position();
		zip.putInt(0x06054b50)
			.putShort((short) 0)
			.putShort((short) 0)
			.putShort((short) 1)
			.putShort((short) 1)
			.putInt(end - central)
			.putInt(central)
			.putShort((short) 0);
		return Arrays.copyOf(zip.array(), zip.position());
	}

	@ParameterizedTest
	@ValueSource(booleans = { true, false })
	void theBombIsAValidZipOfZeros(boolean declared) throws IOException {
		try (ZipInputStream in = new ZipInputStream(
				new ByteArrayInputStream(zipOfZeros("zeros.bin", 3 << 20, declared)))) {
			assertThat(in.getNextEntry().getName()).isEqualTo("zeros.bin");
			assertThat(in.readAllBytes()).hasSize(3 << 20).containsOnly(0);
			assertThat(in.getNextEntry()).isNull();
		}
	}

	@Test
	void theBudgetIsWellBelowWhatTheHeapCanHold() {
		assertThat(bomb.length).isLessThan(1 << 20);
		assertThat(InputFiles.MAX_TOTAL_BYTES).isLessThanOrEqualTo(Runtime.getRuntime().maxMemory() / 4)
			.isLessThan(INFLATED);
	}

	@Test
	void theApiRefusesAZipBombNamingItAndStoresNothing() throws Exception {
		TestUploads.RowCounts before = TestUploads.rows(jdbc);

		String body = mvc
			.perform(multipart("/api/runs/import")
				.file(new MockMultipartFile("files", "results.zip", "application/zip", bomb))
				.param("provenance", "{\"title\": \"bomb\"}")
				.with(httpBasic(USER, PASSWORD)))
			.andExpect(status().isBadRequest())
			.andReturn()
			.getResponse()
			.getContentAsString();

		assertThat(body).contains("\"path\":\"files\"").contains("results.zip: the uploaded zips inflate to more than");
		assertThat(TestUploads.rows(jdbc)).isEqualTo(before);
	}

	@Test
	void theUploadFormRefusesAZipBombThatHidesItsSizeNamingIt() throws Exception {
		String page = mvc
			.perform(multipart("/upload")
				.file(new MockMultipartFile("file", "results.zip", "application/zip", undeclared))
				.with(httpBasic(USER, PASSWORD))
				.with(csrf()))
			.andExpect(status().isBadRequest())
			.andReturn()
			.getResponse()
			.getContentAsString();

		assertThat(page).contains("results.zip: the uploaded zips inflate to more than");
	}

}
