package dev.parity.backup;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipFile;

import dev.parity.run.Sha256;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * An uploaded backup, checked before anything is stored: it is a {@value Backups#FORMAT} zip, every file the
 * manifest names is there with the size and SHA-256 it names, and every run has its cells.
 */
final class BackupArchive implements Closeable {

	/** A cells entry larger than this is refused rather than read into memory (1 GiB). */
	private static final long MAX_ENTRY = 1L << 30;

	private final ZipFile zip;

	private final JsonNode manifest;

	private final JsonMapper json;

	private BackupArchive(ZipFile zip, JsonNode manifest, JsonMapper json) {
		this.zip = zip;
		this.manifest = manifest;
		this.json = json;
	}

	/**
	 * Opens and checks an archive.
	 * @throws BackupRejected when it is not a backup, is damaged, or was made by a newer Parity than {@code schemaVersion}
	 */
	static BackupArchive open(Path path, JsonMapper json, String schemaVersion) {
		ZipFile zip;
		try {
			zip = new ZipFile(path.toFile());
		}
		catch (ZipException ex) {
			throw new BackupRejected("not a zip archive: a backup is the zip that /admin/backup downloads");
		}
		catch (IOException ex) {
			throw new BackupRejected("the archive cannot be read: " + ex.getMessage(), ex);
		}
		try {
			ZipEntry entry = zip.getEntry(Backups.MANIFEST);
			if (entry == null) {
				throw new BackupRejected("not a Parity backup: the zip holds no " + Backups.MANIFEST);
			}
			JsonNode manifest;
			try (InputStream in = zip.getInputStream(entry)) {
				manifest = json.readTree(in);
			}
			catch (JacksonException ex) {
				throw new BackupRejected(Backups.MANIFEST + " is not valid JSON: " + ex.getOriginalMessage());
			}
			if (!Backups.FORMAT.equals(manifest.path("format").asString(""))) {
				throw new BackupRejected("not a Parity backup: the manifest's format is " + manifest.path("format")
						+ ", not \"" + Backups.FORMAT + "\"");
			}
			String version = manifest.path("schema_version").asString("");
			if (newer(version, schemaVersion)) {
				throw new BackupRejected("the backup was made by a newer Parity (database version " + version
						+ "; this one has " + schemaVersion + "): restore it with that version or a newer one");
			}
			BackupArchive archive = new BackupArchive(zip, manifest, json);
			archive.check();
			return archive;
		}
		catch (IOException ex) {
			closeQuietly(zip);
			throw new BackupRejected("the archive cannot be read: " + ex.getMessage(), ex);
		}
		catch (RuntimeException ex) {
			closeQuietly(zip);
			throw ex;
		}
	}

	/** Every file is present with its size and checksum; every run has its cells. */
	private void check() throws IOException {
		for (JsonNode run : manifest.path("runs")) {
			String id = run.path("run").path("id").asString("");
			String cells = run.path("cells").asString("");
			if (id.isEmpty() || zip.getEntry(cells) == null) {
				throw new BackupRejected("damaged archive: the cells of run '" + id + "' are missing");
			}
			for (JsonNode file : run.path("files")) {
				read(file);
			}
		}
		for (String kind : List.of("caveats", "hypothesis_status", "publications", "retractions", "audit_events")) {
			if (!manifest.path(kind).isArray()) {
				throw new BackupRejected("damaged archive: the manifest has no list of " + kind.replace('_', ' '));
			}
		}
	}

	JsonNode manifest() {
		return manifest;
	}

	/** The runs, one at a time, each with its file contents and cells (checked again as they are read). */
	List<JsonNode> runEntries() {
		List<JsonNode> runs = new ArrayList<>();
		manifest.path("runs").forEach(runs::add);
		return runs;
	}

	RunRestore.RestoredRun run(JsonNode entry) throws IOException {
		List<JsonNode> rows = new ArrayList<>();
		List<byte[]> contents = new ArrayList<>();
		for (JsonNode file : entry.path("files")) {
			rows.add(file.path("row"));
			contents.add(read(file));
		}
		JsonNode cells;
		try (InputStream in = zip.getInputStream(zip.getEntry(entry.path("cells").asString()))) {
			cells = json.readTree(in.readNBytes((int) Math.min(MAX_ENTRY, Integer.MAX_VALUE - 8)));
		}
		catch (JacksonException ex) {
			throw new BackupRejected("damaged archive: the cells of run '" + entry.path("run").path("id").asString()
					+ "' are not valid JSON");
		}
		if (!cells.isArray() || cells.size() != entry.path("run").path("cell_count").asInt(-1)) {
			throw new BackupRejected("damaged archive: run '" + entry.path("run").path("id").asString() + "' has "
					+ entry.path("run").path("cell_count") + " cells, but its cells entry holds " + cells.size());
		}
		return new RunRestore.RestoredRun(entry.path("run"), rows, contents, cells);
	}

	/** A file's content, after checking its size and SHA-256 against the manifest. */
	private byte[] read(JsonNode file) throws IOException {
		String path = file.path("path").asString("");
		ZipEntry entry = path.isEmpty() ? null : zip.getEntry(path);
		if (entry == null) {
			throw new BackupRejected("damaged archive: " + (path.isEmpty() ? "a file" : path) + " is missing");
		}
		long size = file.path("row").path("size_bytes").asLong(-1);
		if (size < 0 || size > MAX_ENTRY) {
			throw new BackupRejected("damaged archive: " + path + " has no usable size in the manifest");
		}
		byte[] content;
		try (InputStream in = zip.getInputStream(entry)) {
			content = in.readNBytes((int) size + 1);
		}
		if (content.length != size || !Sha256.hex(content).equals(file.path("row").path("sha256").asString())) {
			throw new BackupRejected("damaged archive: " + path + " does not match its size and SHA-256 in the manifest");
		}
		return Arrays.copyOf(content, (int) size);
	}

	/** Whether version {@code a} (e.g. {@code 3} or {@code 3.1}) is newer than {@code b}. */
	static boolean newer(String a, String b) {
		String[] x = a.split("\\.");
		String[] y = b.split("\\.");
		for (int i = 0; i < Math.max(x.length, y.length); i++) {
			long left = i < x.length ? number(x[i]) : 0;
			long right = i < y.length ? number(y[i]) : 0;
			if (left != right) {
				return left > right;
			}
		}
		return false;
	}

	private static long number(String part) {
		try {
			return Long.parseLong(part.trim());
		}
		catch (NumberFormatException ex) {
			throw new BackupRejected("not a Parity backup: the schema version '" + part + "' is not a number");
		}
	}

	@Override
	public void close() throws IOException {
		zip.close();
	}

	private static void closeQuietly(ZipFile zip) {
		try {
			zip.close();
		}
		catch (IOException ex) {
			// Already failing with the reason that matters.
		}
	}

}
