package dev.parity.ingest.mapping;

import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import dev.parity.audit.AuditTrail;
import dev.parity.web.Problem;
import dev.parity.ingest.RunFileRejected;
import dev.parity.ingest.harness.ImportRejected;
import dev.parity.ingest.harness.ImportTooLarge;
import dev.parity.ingest.harness.JsonBudget;
import dev.parity.ingest.harness.JsonLimits;
import dev.parity.ingest.harness.InputFile;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * The saved formats: created by uploaders, listed for everyone, versioned. A version,
 * once saved, never changes (the table is append-only); saving a changed mapping under
 * the same name makes the next version. A format belongs to whoever saved its first
 * version: only they, or an admin, add versions to it.
 */
@Service
public class SavedFormats {

	private final JdbcClient jdbc;

	private final AuditTrail audit;

	private final JsonMapper json = JsonMapper.builder().build();

	SavedFormats(JdbcClient jdbc, AuditTrail audit) {
		this.jdbc = jdbc;
		this.audit = audit;
	}

	/**
	 * What saving gave: the version, and whether it is new (an unchanged mapping gives
	 * the version saved before).
	 */
	public record Saved(SavedFormat format, boolean created) {
	}

	/**
	 * Checks the mapping (and, with a sample, that it reads it) without saving anything.
	 * @return the checked mapping
	 * @throws RunFileRejected with every problem, each naming its key
	 */
	public FieldMappingCheck check(String mappingText, @Nullable InputFile sample) {
		JsonNode node;
		try {
			node = json.readTree(mappingText.startsWith("\uFEFF") ? mappingText.substring(1) : mappingText);
		}
		catch (JacksonException ex) {
			throw new RunFileRejected("mapping", "not valid JSON: " + ex.getOriginalMessage());
		}
		if (node == null || node.isMissingNode()) {
			throw new RunFileRejected("mapping", "is empty: send the mapping as a JSON object");
		}
		FieldMapping.Parsed parsed = FieldMapping.parse(node);
		if (parsed.mapping() == null) {
			throw new RunFileRejected(parsed.problems());
		}
		if (sample != null) {
			List<Problem> problems = MappedImport.checkAgainst(parsed.mapping(), sample);
			if (!problems.isEmpty()) {
				throw new RunFileRejected(problems);
			}
		}
		return new FieldMappingCheck(node, parsed.mapping());
	}

	/** A mapping that parsed: its JSON and what it means. */
	public record FieldMappingCheck(JsonNode source, FieldMapping mapping) {

		/** The mapping as a format not yet saved (version 0), for a preview. */
		public SavedFormat draft(String by) {
			return new SavedFormat(mapping.name(), 0, source, by, Instant.now());
		}
	}

	/**
	 * Saves the mapping as the next version of its name (or gives the latest version back
	 * when it is unchanged).
	 * @param admin whether {@code by} is an admin, who may add versions to anybody's
	 * format
	 * @throws RunFileRejected with every problem; nothing is saved
	 * @throws FormatNotYours when the name is another user's format; nothing is saved
	 */
	@Transactional
	public Saved save(String mappingText, @Nullable InputFile sample, String by, boolean admin) {
		FieldMappingCheck checked;
		try {
			checked = check(mappingText, sample);
		}
		catch (RunFileRejected rejected) {
			audit.refused("save-format", "format", rejected.problems().toString());
			throw rejected;
		}
		String name = checked.mapping().name();
		jdbc.sql("select pg_advisory_xact_lock(hashtext('saved_format:' || ?))")
			.param(name)
			.query(Object.class)
			.single();
		Optional<SavedFormat> latest = find(name, null);
		if (latest.isPresent() && latest.get().source().equals(checked.source())) {
			return new Saved(latest.get(), false);
		}
		if (latest.isPresent() && !admin) {
			String owner = owner(name);
			if (!owner.equals(by)) {
				audit.refused("save-format", name, "saved format " + name + " belongs to " + owner);
				throw new FormatNotYours(name, owner);
			}
		}
		int version = latest.map(format -> format.version() + 1).orElse(1);
		jdbc.sql("insert into saved_format (name, version, mapping, created_by) values (?, ?, ?, ?)")
			.params(name, version, mappingText, by)
			.update();
		audit.done("save-format", name + "@" + version, "saved format " + name + " version " + version);
		return new Saved(find(name, version).orElseThrow(), true);
	}

	/** Who made a format: the author of its first version. */
	private String owner(String name) {
		return jdbc.sql("select created_by from saved_format where name = ? order by version limit 1")
			.param(name)
			.query(String.class)
			.single();
	}

	/** The latest version of every saved format, by name. */
	public List<SavedFormat> latest() {
		return jdbc.sql("""
				select distinct on (name) name, version, mapping, created_by, created_at from saved_format
				order by name, version desc""").query(this::row).list();
	}

	/** Every version of a format, newest first. */
	public List<SavedFormat> versions(String name) {
		return jdbc
			.sql("select name, version, mapping, created_by, created_at from saved_format where name = ?"
					+ " order by version desc")
			.param(name)
			.query(this::row)
			.list();
	}

	/** A version of a format; the latest when {@code version} is {@code null}. */
	public Optional<SavedFormat> find(String name, @Nullable Integer version) {
		if (version == null) {
			return versions(name).stream().findFirst();
		}
		return jdbc.sql(
				"select name, version, mapping, created_by, created_at from saved_format where name = ? and version = ?")
			.params(name, version)
			.query(this::row)
			.optional();
	}

	/**
	 * The format a request names: {@code name} (latest version) or {@code name@version}.
	 * @throws RunFileRejected on the {@code format} part when there is no such format or
	 * version
	 */
	public Optional<SavedFormat> resolve(String spec) {
		String text = spec.strip();
		int at = text.lastIndexOf('@');
		if (at < 0) {
			return find(text, null);
		}
		String name = text.substring(0, at);
		String version = text.substring(at + 1);
		if (!version.matches("[1-9][0-9]{0,8}")) {
			throw new RunFileRejected("format",
					"'" + spec + "': the version after @ must be a number, e.g. " + name + "@1");
		}
		Optional<SavedFormat> found = find(name, Integer.valueOf(version));
		if (found.isEmpty() && find(name, null).isPresent()) {
			throw new RunFileRejected("format", "saved format " + name + " has no version " + version + " (latest: "
					+ find(name, null).orElseThrow().version() + ")");
		}
		return found;
	}

	/**
	 * The saved formats (latest versions) whose every {@code detect} path exists in the
	 * files. Ask only for files no built-in format recognises: a file of a known harness
	 * is never given to a saved format by detection.
	 */
	public List<SavedFormat> detect(List<InputFile> files) {
		return detect(files, JsonLimits.DEFAULT);
	}

	/**
	 * The saved formats whose every {@code detect} path exists in the files, read within
	 * {@code limits} (all files together: they are held together).
	 * @throws ImportTooLarge when the files go beyond the limits
	 */
	public List<SavedFormat> detect(List<InputFile> files, JsonLimits limits) {
		List<Object> parsed = new ArrayList<>();
		JsonBudget budget = new JsonBudget(limits);
		for (InputFile file : files) {
			try {
				Object value = MappedImport.parse(file, budget);
				if (value != null) {
					parsed.add(value);
				}
			}
			catch (ImportTooLarge ex) {
				throw ex;
			}
			catch (ImportRejected ex) {
				return List.of();
			}
		}
		if (parsed.isEmpty()) {
			return List.of();
		}
		List<SavedFormat> found = new ArrayList<>();
		for (SavedFormat format : latest()) {
			FieldMapping.Parsed mapping = FieldMapping.parse(format.source());
			if (mapping.mapping() != null && parsed.stream()
				.allMatch(value -> mapping.mapping().detect().stream().allMatch(path -> path.existsIn(value)))) {
				found.add(format);
			}
		}
		return found;
	}

	private SavedFormat row(ResultSet rs, int row) throws SQLException {
		return new SavedFormat(rs.getString("name"), rs.getInt("version"), json.readTree(rs.getString("mapping")),
				rs.getString("created_by"), rs.getTimestamp("created_at").toInstant());
	}

	static byte[] utf8(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

}
