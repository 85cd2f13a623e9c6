package dev.parity.ingest.harness;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Metrics;

/**
 * Expands uploaded zips into their files, so a harness that writes one file per cell can
 * be uploaded as one archive. A zip is recognised by its content ({@code PK\3\4}), not by
 * its name.
 */
public final class InputFiles {

	/** At most this many files are taken out of the uploaded zips together. */
	public static final int MAX_ENTRIES = 10_000;

	/**
	 * At most this many bytes are inflated out of the uploaded zips of one request
	 * together: an eighth of the heap, at most 1 GiB, so that an entry that inflates to
	 * gigabytes of zeros is refused before it fills the memory (what was inflated is held
	 * once, and once more while it is read).
	 */
	public static final long MAX_TOTAL_BYTES = budgetFor(Runtime.getRuntime().maxMemory());

	/**
	 * The meter of the entries inflated out of uploaded zips, all uploads together (an
	 * upload is expanded once).
	 */
	public static final String INFLATED_METER = "parity.uploads.zip.entries";

	private static final Counter INFLATED_ENTRIES = Counter.builder(INFLATED_METER)
		.description("Entries inflated out of uploaded zips")
		.register(Metrics.globalRegistry);

	/**
	 * Inflated in pieces smaller than a heap region, so a refused entry never sat in
	 * half-empty humongous regions.
	 */
	private static final int CHUNK = 256 << 10;

	private static final byte[] ZIP_MAGIC = { 'P', 'K', 3, 4 };

	private InputFiles() {
	}

	/**
	 * The uploaded files with every zip replaced by its entries (directories skipped,
	 * entry paths kept as names); other files pass through unchanged.
	 * @throws ImportRejected when a zip is corrupt, empty, or exceeds the limits
	 */
	public static List<InputFile> expand(List<InputFile> uploaded) {
		return expand(uploaded, MAX_ENTRIES, MAX_TOTAL_BYTES);
	}

	/**
	 * The inflation budget of a server whose heap can grow to {@code maxMemory} bytes.
	 */
	static long budgetFor(long maxMemory) {
		return Math.min(1L << 30, maxMemory / 8);
	}

	static List<InputFile> expand(List<InputFile> uploaded, int maxEntries, long maxTotalBytes) {
		List<InputFile> files = new ArrayList<>();
		Budget budget = new Budget(maxEntries, maxTotalBytes);
		for (InputFile file : uploaded) {
			if (isZip(file.content())) {
				files.addAll(entries(file, budget));
			}
			else {
				files.add(file);
			}
		}
		return files;
	}

	static boolean isZip(byte[] content) {
		if (content.length < ZIP_MAGIC.length) {
			return false;
		}
		for (int i = 0; i < ZIP_MAGIC.length; i++) {
			if (content[i] != ZIP_MAGIC[i]) {
				return false;
			}
		}
		return true;
	}

	private static List<InputFile> entries(InputFile zip, Budget budget) {
		List<InputFile> entries = new ArrayList<>();
		try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(zip.content()))) {
			ZipEntry entry;
			while ((entry = in.getNextEntry()) != null) {
				if (entry.isDirectory()) {
					continue;
				}
				budget.countEntry(zip.name());
				// A size the header declares is refused at once; one that lies is caught
				// while inflating.
				budget.checkDeclared(zip.name(), entry.getSize());
				INFLATED_ENTRIES.increment();
				entries.add(new InputFile(entry.getName(), inflate(in, zip.name(), budget)));
			}
		}
		catch (IOException ex) {
			throw new ImportRejected(zip.name() + ": not a readable zip: " + ex.getMessage(), ex);
		}
		if (entries.isEmpty()) {
			throw new ImportRejected(zip.name() + ": the zip holds no files");
		}
		return entries;
	}

	/**
	 * The entry's bytes, counted against the budget before they are kept (the sizes a zip
	 * declares in its headers can lie): an entry beyond the budget is refused having held
	 * no more than the budget.
	 */
	private static byte[] inflate(ZipInputStream in, String zipName, Budget budget) throws IOException {
		List<byte[]> chunks = new ArrayList<>();
		long size = 0;
		while (true) {
			byte[] chunk = in.readNBytes(CHUNK);
			if (chunk.length == 0) {
				break;
			}
			budget.countBytes(zipName, chunk.length);
			chunks.add(chunk);
			size += chunk.length;
		}
		byte[] content = new byte[Math.toIntExact(size)];
		int at = 0;
		for (byte[] chunk : chunks) {
			System.arraycopy(chunk, 0, content, at, chunk.length);
			at += chunk.length;
		}
		return content;
	}

	/** What is left of the limits while expanding one upload. */
	private static final class Budget {

		private final int maxEntries;

		private final long maxBytes;

		private int entries;

		private long bytes;

		Budget(int maxEntries, long maxBytes) {
			this.maxEntries = maxEntries;
			this.maxBytes = maxBytes;
		}

		void countEntry(String zipName) {
			if (++entries > maxEntries) {
				throw new ImportRejected(zipName + ": more than " + maxEntries
						+ " files in the uploaded zips; upload fewer files at once");
			}
		}

		void checkDeclared(String zipName, long size) {
			if (size > 0 && bytes + size > maxBytes) {
				throw tooLarge(zipName);
			}
		}

		void countBytes(String zipName, int more) {
			bytes += more;
			if (bytes > maxBytes) {
				throw tooLarge(zipName);
			}
		}

		private ImportRejected tooLarge(String zipName) {
			return new ImportRejected(zipName + ": the uploaded zips inflate to more than " + describe(maxBytes)
					+ " (an eighth of the server's memory, at most 1 GiB); upload fewer files at once");
		}

		private static String describe(long bytes) {
			if (bytes >= (1L << 30) && bytes % (1L << 30) == 0) {
				return (bytes >> 30) + " GiB";
			}
			return bytes >= (1L << 20) ? (bytes >> 20) + " MiB" : bytes + " bytes";
		}

	}

}
