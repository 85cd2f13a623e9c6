package dev.parity.backup;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipFile;

import dev.parity.run.RunId;
import dev.parity.run.Sha256;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * An uploaded backup, checked before anything is stored: it is a {@value Backups#FORMAT}
 * zip, every file the manifest names is there with the size and SHA-256 it names, every
 * run has its cells, and what the manifest claims is consistent (see {@link #check}).
 */
final class BackupArchive implements Closeable {

	private static final Pattern SHA256 = Pattern.compile("[0-9a-f]{64}");

	/**
	 * An entry larger than this is refused before it is read into memory: an eighth of
	 * the heap, at most 1 GiB (the uploads the entries were are at most
	 * {@code parity.limits.max-request-size}, 128 MB by default).
	 */
	static final long MAX_ENTRY = Math.min(1L << 30, Runtime.getRuntime().maxMemory() / 8);

	/**
	 * Read in pieces of this size, so that checking an entry holds no more than one
	 * piece.
	 */
	private static final int CHUNK = 64 << 10;

	private final ZipFile zip;

	private final JsonNode manifest;

	private final JsonMapper json;

	private BackupContents contents = new BackupContents(Map.of());

	private BackupArchive(ZipFile zip, JsonNode manifest, JsonMapper json) {
		this.zip = zip;
		this.manifest = manifest;
		this.json = json;
	}

	/**
	 * Opens and checks an archive.
	 * @throws BackupRejected when it is not a backup, is damaged, or was made by a newer
	 * Parity than {@code schemaVersion}
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
				manifest = json.readTree(upToLimit(in, Backups.MANIFEST));
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

	/**
	 * What the archive claims must hold before anything is stored: every file is present
	 * and hashes to the SHA-256 its row records; a run uploaded as one document is
	 * identified by that document's SHA-256; ids are well-formed and unique; every
	 * reference (caveat, status change, publication, retraction, control link) names a
	 * run, caveat or publication of the archive; and the counts in the manifest are what
	 * it holds. Authors and dates are kept as they are.
	 */
	private void check() throws IOException {
		for (String kind : List.of("caveats", "hypothesis_status", "publications", "retractions", "audit_events")) {
			if (!manifest.path(kind).isArray()) {
				throw new BackupRejected("damaged archive: the manifest has no list of " + kind.replace('_', ' '));
			}
		}
		if (!manifest.path("runs").isArray()) {
			throw new BackupRejected("damaged archive: the manifest has no list of runs");
		}
		Set<String> runs = new HashSet<>();
		long files = 0;
		long cells = 0;
		for (JsonNode run : manifest.path("runs")) {
			JsonNode row = run.path("run");
			String id = row.path("id").asString("");
			if (!RunId.isValid(id)) {
				throw inconsistent("a run id " + quote(id) + " is not a run id (10 characters a-z, 0-9)");
			}
			if (!runs.add(id)) {
				throw inconsistent("run '" + id + "' is in the archive twice");
			}
			String cellsPath = run.path("cells").asString("");
			if (!cellsPath.equals(Backups.cellsPath(id)) || zip.getEntry(cellsPath) == null) {
				throw new BackupRejected("damaged archive: the cells of run '" + id + "' are missing");
			}
			if (!row.path("cell_count").canConvertToInt() || row.path("cell_count").asInt() < 0) {
				throw inconsistent("run '" + id + "' claims " + row.path("cell_count") + " cells");
			}
			cells += row.path("cell_count").asInt();
			sha256(row, "upload_sha256", "run '" + id + "'");
			sha256(row, "workload_fingerprint", "run '" + id + "'");
			int position = 0;
			String onlyFile = null;
			for (JsonNode file : run.path("files")) {
				JsonNode fileRow = file.path("row");
				String path = Backups.filePath(id, position);
				if (!id.equals(fileRow.path("run_id").asString("")) || fileRow.path("position").asInt(-1) != position
						|| !path.equals(file.path("path").asString(""))) {
					throw inconsistent("file " + position + " of run '" + id + "' is listed as "
							+ quote(file.path("path").asString("")) + " of run "
							+ quote(fileRow.path("run_id").asString("")) + " at position " + fileRow.path("position"));
				}
				verify(file);
				onlyFile = position == 0 ? fileRow.path("sha256").asString() : null;
				position++;
			}
			if (position == 0) {
				throw inconsistent("run '" + id + "' has no uploaded file");
			}
			// A run uploaded as one document is identified by that document's bytes: a
			// changed document is a forgery.
			if (onlyFile != null && !onlyFile.equals(row.path("upload_sha256").asString())) {
				throw inconsistent("the document of run '" + id + "' does not hash to the run's upload SHA-256");
			}
			files += position;
		}
		Set<String> caveats = ids("caveats", "a caveat");
		Set<String> publications = ids("publications", "a publication");
		for (JsonNode caveat : manifest.path("caveats")) {
			String where = "caveat '" + caveat.path("id").asString() + "'";
			references(caveat, where, runs, "run_id", "baseline_id", "contender_id");
		}
		for (JsonNode status : manifest.path("hypothesis_status")) {
			String where = "hypothesis status " + status.path("id");
			references(status, where, caveats, "caveat_id");
			references(status, where, runs, "decided_by", "experiment");
		}
		for (JsonNode publication : manifest.path("publications")) {
			String where = "publication '" + publication.path("id").asString() + "'";
			references(publication, where, runs, "baseline_id", "contender_id");
			// A publication of several contenders lists all their runs (no foreign key
			// holds them: check them here).
			for (JsonNode contender : publication.path("contenders")) {
				if (!runs.contains(contender.asString(""))) {
					throw inconsistent(where + " refers to " + quote(contender.asString(contender.toString()))
							+ " (contenders), which is not in the archive");
				}
			}
		}
		for (JsonNode retraction : manifest.path("retractions")) {
			String kind = retraction.path("subject_kind").asString("");
			Set<String> subjects = switch (kind) {
				case "run" -> runs;
				case "publication" -> publications;
				default -> throw inconsistent("retraction " + retraction.path("id") + " retracts a " + quote(kind)
						+ ", not a run or a publication");
			};
			references(retraction, "retraction " + retraction.path("id"), subjects, "subject_id", "replacement_id");
		}
		JsonNode counts = manifest.path("counts");
		Long controlLinks = controlLinks(runs, counts);
		Map<String, Long> held = new LinkedHashMap<>();
		held.put("runs", (long) runs.size());
		held.put("files", files);
		held.put("cells", cells);
		held.put("caveats", (long) caveats.size());
		held.put("hypothesis_status", (long) manifest.path("hypothesis_status").size());
		held.put("publications", (long) publications.size());
		held.put("retractions", (long) manifest.path("retractions").size());
		if (controlLinks != null) {
			held.put("control_links", controlLinks);
		}
		held.put("audit_events", (long) manifest.path("audit_events").size());
		for (Map.Entry<String, Long> kind : held.entrySet()) {
			JsonNode claimed = counts.path(kind.getKey());
			if (!claimed.isIntegralNumber() || claimed.longValue() != kind.getValue()) {
				throw inconsistent("the manifest counts " + (claimed.isMissingNode() ? "no" : claimed.toString()) + " "
						+ kind.getKey().replace('_', ' ') + ", but the archive holds " + kind.getValue());
			}
		}
		this.contents = new BackupContents(held);
	}

	/**
	 * Checks the control links, when the archive holds them (one made before they were
	 * backed up holds no list and counts none): ids well-formed and unique, the control
	 * and both sides of its comparison runs of the archive, each declaration once.
	 * @return how many there are, or {@literal null} for an archive without control links
	 */
	private @Nullable Long controlLinks(Set<String> runs, JsonNode counts) {
		if (!manifest.has("control_links")) {
			if (counts.has("control_links")) {
				throw new BackupRejected("damaged archive: the manifest counts control links but has no list of them");
			}
			return null;
		}
		if (!manifest.path("control_links").isArray()) {
			throw new BackupRejected("damaged archive: the manifest's control links are not a list");
		}
		Set<String> links = ids("control_links", "a control link");
		Set<String> declarations = new HashSet<>();
		for (JsonNode link : manifest.path("control_links")) {
			String where = "control link '" + link.path("id").asString() + "'";
			for (String field : List.of("control_id", "baseline_id", "contender_id")) {
				if (!link.path(field).isString()) {
					throw inconsistent(where + " names no run as " + field);
				}
			}
			references(link, where, runs, "control_id", "baseline_id", "contender_id");
			String declaration = link.path("control_id").asString() + " as the control of "
					+ link.path("baseline_id").asString() + "..." + link.path("contender_id").asString();
			if (!declarations.add(declaration)) {
				throw inconsistent(where + " declares " + declaration + " again");
			}
		}
		return (long) links.size();
	}

	/** The ids of one kind of record: each well-formed and unique. */
	private Set<String> ids(String kind, String what) {
		Set<String> ids = new HashSet<>();
		for (JsonNode row : manifest.path(kind)) {
			String id = row.path("id").asString("");
			if (!RunId.isValid(id)) {
				throw inconsistent(what + " id " + quote(id) + " is not an id (10 characters a-z, 0-9)");
			}
			if (!ids.add(id)) {
				throw inconsistent(what + " '" + id + "' is in the archive twice");
			}
		}
		return ids;
	}

	/** Each of the fields, when set, names one of {@code known}. */
	private static void references(JsonNode row, String where, Set<String> known, String... fields) {
		for (String field : fields) {
			JsonNode value = row.path(field);
			if (value.isMissingNode() || value.isNull()) {
				continue;
			}
			if (!known.contains(value.asString(""))) {
				throw inconsistent(where + " refers to " + quote(value.asString(value.toString())) + " (" + field
						+ "), which is not in the archive");
			}
		}
	}

	private static void sha256(JsonNode row, String field, String where) {
		if (!SHA256.matcher(row.path(field).asString("")).matches()) {
			throw inconsistent(where + " has no SHA-256 as " + field + " (64 hexadecimal characters)");
		}
	}

	private static BackupRejected inconsistent(String problem) {
		return new BackupRejected("inconsistent archive, nothing was restored: " + problem);
	}

	/**
	 * A value from the archive as it can be shown in a message: quoted, short, without
	 * control characters.
	 */
	private static String quote(String value) {
		String shown = value.length() > 40 ? value.substring(0, 40) + "…" : value;
		StringBuilder out = new StringBuilder("'");
		shown.codePoints().forEach(c -> {
			if (Character.isISOControl(c) || Character.getType(c) == Character.SURROGATE) {
				out.append(String.format("\\u%04x", c));
			}
			else {
				out.appendCodePoint(c);
			}
		});
		return out.append('\'').toString();
	}

	/** What the archive holds, as checked. */
	BackupContents contents() {
		return contents;
	}

	JsonNode manifest() {
		return manifest;
	}

	/**
	 * The runs, one at a time, each with its file contents and cells (checked again as
	 * they are read).
	 */
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
			cells = json.readTree(upToLimit(in, entry.path("cells").asString()));
		}
		catch (JacksonException ex) {
			throw new BackupRejected("damaged archive: the cells of run '" + entry.path("run").path("id").asString()
					+ "' are not valid JSON");
		}
		if (!cells.isArray() || cells.size() != entry.path("run").path("cell_count").asInt(-1)) {
			throw new BackupRejected("damaged archive: run '" + entry.path("run").path("id").asString() + "' has "
					+ entry.path("run").path("cell_count") + " cells, but its cells entry holds " + cells.size());
		}
		String id = entry.path("run").path("id").asString();
		for (int i = 0; i < cells.size(); i++) {
			JsonNode cell = cells.get(i);
			if (!id.equals(cell.path("run_id").asString("")) || cell.path("position").asInt(-1) != i) {
				throw inconsistent("cell " + i + " of run '" + id + "' is listed as cell " + cell.path("position")
						+ " of run " + quote(cell.path("run_id").asString("")));
			}
		}
		return new RunRestore.RestoredRun(entry.path("run"), rows, contents, cells);
	}

	/**
	 * Checks a file's size and SHA-256 against the manifest, reading it in pieces:
	 * nothing of it is held, and no more than its declared size is inflated.
	 */
	private void verify(JsonNode file) throws IOException {
		String path = file.path("path").asString("");
		long size = declaredSize(file, path);
		MessageDigest sha256 = sha256();
		byte[] chunk = new byte[CHUNK];
		long read = 0;
		try (InputStream in = zip.getInputStream(entry(path))) {
			int n;
			while (read <= size && (n = in.read(chunk)) >= 0) {
				sha256.update(chunk, 0, n);
				read += n;
			}
		}
		if (read != size
				|| !HexFormat.of().formatHex(sha256.digest()).equals(file.path("row").path("sha256").asString())) {
			throw mismatch(path);
		}
	}

	/** A file's content, after checking its size and SHA-256 against the manifest. */
	private byte[] read(JsonNode file) throws IOException {
		String path = file.path("path").asString("");
		long size = declaredSize(file, path);
		byte[] content = new byte[(int) size];
		try (InputStream in = zip.getInputStream(entry(path))) {
			if (in.readNBytes(content, 0, content.length) != size || in.read() >= 0) {
				throw mismatch(path);
			}
		}
		if (!Sha256.hex(content).equals(file.path("row").path("sha256").asString())) {
			throw mismatch(path);
		}
		return content;
	}

	private ZipEntry entry(String path) {
		ZipEntry entry = path.isEmpty() ? null : zip.getEntry(path);
		if (entry == null) {
			throw new BackupRejected("damaged archive: " + (path.isEmpty() ? "a file" : path) + " is missing");
		}
		return entry;
	}

	/**
	 * The size the manifest gives a file, refused beyond {@link #MAX_ENTRY} before
	 * anything of it is read.
	 */
	private long declaredSize(JsonNode file, String path) {
		entry(path);
		long size = file.path("row").path("size_bytes").asLong(-1);
		if (size < 0) {
			throw new BackupRejected("damaged archive: " + path + " has no usable size in the manifest");
		}
		if (size > MAX_ENTRY) {
			throw tooLarge(path, size + " bytes");
		}
		return size;
	}

	/**
	 * An entry's bytes, refused once more than {@link #MAX_ENTRY} come out (whatever size
	 * its header declares).
	 */
	private static byte[] upToLimit(InputStream in, String path) throws IOException {
		byte[] content = in.readNBytes((int) MAX_ENTRY);
		if (content.length == MAX_ENTRY && in.read() >= 0) {
			throw tooLarge(path, "more than " + MAX_ENTRY + " bytes");
		}
		return content;
	}

	private static BackupRejected tooLarge(String path, String size) {
		return new BackupRejected("the archive's " + path + " is " + size + "; a restore reads entries of at most "
				+ (MAX_ENTRY >> 20) + " MiB (an eighth of the server's memory, at most 1 GiB): restore on a server with"
				+ " more memory");
	}

	private static BackupRejected mismatch(String path) {
		return new BackupRejected("damaged archive: " + path + " does not match its size and SHA-256 in the manifest");
	}

	private static MessageDigest sha256() {
		try {
			return MessageDigest.getInstance("SHA-256");
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * Whether version {@code a} (e.g. {@code 3} or {@code 3.1}) is newer than {@code b}.
	 */
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
