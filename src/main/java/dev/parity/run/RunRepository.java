package dev.parity.run;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Reads stored runs back: a run or several at once, and the bytes of their uploaded
 * files. Loading a run or a pair of runs takes a fixed number of queries whatever the
 * number of cells. {@link RunWriter} stores them.
 */
@Repository
public class RunRepository {

	private final JdbcClient jdbc;

	private final JsonMapper json;

	private final CellStatistics statistics;

	/**
	 * Runs read without their samples ({@link #findAll(Collection, String)}), by id and
	 * the statistics they were read with: a run never changes, nor do its statistics
	 * under one computation, and a new run is read several times at once (its series'
	 * update, its verdict's comparison, its first comparison's page). Bounded by cells.
	 */
	private final Cache<LightKey, Run> lightRuns = Caffeine.newBuilder()
		.maximumWeight(100_000)
		.<LightKey, Run>weigher((key, run) -> 1 + run.document().cells().size())
		.build();

	private record LightKey(String runId, String statisticsUnder) {
	}

	/**
	 * Runs' headers ({@link #header}), by id: a verdict, its words and its comparison
	 * each ask for the run's and its baseline's.
	 */
	private final Cache<String, Run> headers = Caffeine.newBuilder().maximumSize(20_000).build();

	RunRepository(JdbcClient jdbc, JsonMapper json, CellStatistics statistics) {
		this.jdbc = jdbc;
		this.json = json;
		this.statistics = statistics;
	}

	/**
	 * A run's row as read: everything but its cells and files, the document part as the
	 * JSON it was stored from.
	 *
	 * @param document the document without cells ({@code format}, title, role, recorded
	 * time and the provenance)
	 */
	private record RunRow(RunId id, ObjectNode document, String workloadFingerprint, Instant uploadedAt,
			String uploadedBy) {
	}

	/** Whether a run with this id is stored. */
	public boolean exists(RunId id) {
		return jdbc.sql("select count(*) from run where id = ?").param(id.value()).query(Integer.class).single() > 0;
	}

	/** The run, or empty; three queries whatever its size. */
	@Transactional(readOnly = true)
	public Optional<Run> find(RunId id) {
		Map<RunId, Run> runs = findAll(List.of(id));
		return Optional.ofNullable(runs.get(id));
	}

	/** Several runs at once, by id; three queries whatever their number and size. */
	@Transactional(readOnly = true)
	public Map<RunId, Run> findAll(Collection<RunId> ids) {
		return load(CellStatistics.ids(ids), null);
	}

	/**
	 * The run, or empty; read without its samples when it has statistics stored under
	 * {@code statisticsUnder} ({@link #findAll(Collection, String)}).
	 */
	@Transactional(readOnly = true)
	public Optional<Run> find(RunId id, @Nullable String statisticsUnder) {
		return Optional.ofNullable(findAll(List.of(id), statisticsUnder).get(id));
	}

	/**
	 * Several runs at once, by id, for what needs only their samples' statistics (a
	 * comparison): a run whose statistics are stored under {@code statisticsUnder}
	 * ({@link CellStatistics#computedUnder}), with the bootstrap medians of its cells, is
	 * read without its samples — the samples are most of a run — each cell carrying its
	 * {@linkplain Cell#statistics() statistics} instead; any other run is read whole.
	 * {@code null} reads every run whole.
	 */
	@Transactional(readOnly = true)
	public Map<RunId, Run> findAll(Collection<RunId> ids, @Nullable String statisticsUnder) {
		String[] all = CellStatistics.ids(ids);
		if (statisticsUnder == null || all.length == 0) {
			return load(all, null);
		}
		Map<RunId, Run> runs = new LinkedHashMap<>();
		List<String> unread = new ArrayList<>();
		for (String id : all) {
			Run kept = lightRuns.getIfPresent(new LightKey(id, statisticsUnder));
			if (kept != null) {
				runs.put(kept.id(), kept);
			}
			else {
				unread.add(id);
			}
		}
		if (unread.isEmpty()) {
			return runs;
		}
		String[] toRead = unread.toArray(String[]::new);
		Set<RunId> withStatistics = statistics.complete(toRead, statisticsUnder);
		if (!withStatistics.isEmpty()) {
			load(CellStatistics.ids(withStatistics), statisticsUnder).forEach((id, run) -> {
				keep(lightRuns, new LightKey(id.value(), statisticsUnder), run);
				runs.put(id, run);
			});
		}
		String[] whole = Arrays.stream(toRead)
			.filter(id -> !withStatistics.contains(new RunId(id)))
			.toArray(String[]::new);
		if (whole.length > 0) {
			runs.putAll(load(whole, null));
		}
		return runs;
	}

	/**
	 * Keeps a run read without its samples, or its header: at once, unless read in a
	 * transaction that writes (it may be the run's own upload, which may yet roll back),
	 * then once that commits.
	 */
	private <K> void keep(Cache<K, Run> cache, K key, Run run) {
		if (TransactionSynchronizationManager.isSynchronizationActive()
				&& !TransactionSynchronizationManager.isCurrentTransactionReadOnly()) {
			TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
				@Override
				public void afterCommit() {
					cache.asMap().putIfAbsent(key, run);
				}
			});
		}
		else {
			cache.asMap().putIfAbsent(key, run);
		}
	}

	/**
	 * The runs, with their samples when {@code statisticsUnder} is {@code null}, else
	 * with their statistics.
	 */
	private Map<RunId, Run> load(String[] idArray, @Nullable String statisticsUnder) {
		if (idArray.length == 0) {
			return Map.of();
		}
		boolean withSamples = statisticsUnder == null;
		Map<String, Map<String, SampleSummary>> summaries = withSamples ? Map.of()
				: statistics.find(idArray, statisticsUnder);
		List<RunRow> rows = rows(idArray);
		Map<String, List<Cell>> cells = new HashMap<>();
		// Without samples, the column is not even named: its TOAST is never read.
		jdbc.sql("""
				select run_id, params, exec_order, completed, failed, cancelled, output_tokens, reasoning_tokens,
				       metrics""" + (withSamples ? ", samples" : "") + """

				from cell where run_id = any(?) order by run_id, position""").param(idArray).query((ResultSet rs) -> {
			ObjectNode cell = json.createObjectNode();
			cell.set("params", json.readTree(rs.getString("params")));
			putInt(cell, "order", rs, "exec_order");
			ObjectNode requests = cell.putObject("requests");
			putInt(requests, "completed", rs, "completed");
			putInt(requests, "failed", rs, "failed");
			putInt(requests, "cancelled", rs, "cancelled");
			putJson(cell, "output_tokens", rs.getString("output_tokens"));
			putJson(cell, "reasoning_tokens", rs.getString("reasoning_tokens"));
			putJson(cell, "metrics", rs.getString("metrics"));
			// Samples are most of a run: read straight into samples, as RunDocumentReader
			// reads them from a tree.
			Cell read = RunDocumentReader.cell(cell);
			String runId = rs.getString("run_id");
			SampleSummary summary = withSamples ? null : summaries.getOrDefault(runId, Map.of())
				.getOrDefault(read.anchor(), CellStatistics.none(statisticsUnder));
			cells.computeIfAbsent(runId, k -> new ArrayList<>())
				.add(new Cell(read.params(), read.order(), read.requests(), read.outputTokens(), read.reasoningTokens(),
						read.metrics(), withSamples ? samples(rs.getString("samples")) : List.of(), summary));
		});
		Map<String, List<Run.RunFile>> files = new HashMap<>();
		jdbc.sql("""
				select run_id, position, file_name, media_type, sha256, size_bytes
				from run_file where run_id = any(?) order by run_id, position""")
			.param(idArray)
			.query((ResultSet rs) -> {
				files.computeIfAbsent(rs.getString("run_id"), k -> new ArrayList<>())
					.add(new Run.RunFile(rs.getInt("position"), rs.getString("file_name"), rs.getString("media_type"),
							rs.getString("sha256"), rs.getLong("size_bytes")));
			});
		Map<RunId, Run> runs = new LinkedHashMap<>();
		for (RunRow row : rows) {
			String id = row.id().value();
			RunDocument read = RunDocumentReader.read(row.document());
			RunDocument document = new RunDocument(read.title(), read.role(), read.recordedAt(), read.provenance(),
					cells.getOrDefault(id, List.of()));
			runs.put(row.id(), new Run(row.id(), document, row.workloadFingerprint(), row.uploadedAt(),
					row.uploadedBy(), List.copyOf(files.getOrDefault(id, List.of()))));
		}
		return runs;
	}

	/**
	 * A run without its cells and files: its title, role, times and provenance, in one
	 * query (what a lookup by provenance needs, at a fraction of a whole read). Its
	 * document has no cells: it is no run to compare.
	 */
	@Transactional(readOnly = true)
	public Optional<Run> header(RunId id) {
		Run kept = headers.getIfPresent(id.value());
		if (kept != null) {
			return Optional.of(kept);
		}
		return rows(new String[] { id.value() }).stream().findFirst().map(row -> {
			RunDocument read = RunDocumentReader.read(row.document());
			Run header = new Run(row.id(),
					new RunDocument(read.title(), read.role(), read.recordedAt(), read.provenance(), List.of()),
					row.workloadFingerprint(), row.uploadedAt(), row.uploadedBy(), List.of());
			keep(headers, id.value(), header);
			return header;
		});
	}

	/** The rows of these runs: everything but their cells and files. */
	private List<RunRow> rows(String[] idArray) {
		return jdbc.sql("""
				select id, title, role, recorded_at, provenance, workload_fingerprint, uploaded_at, uploaded_by
				from run where id = any(?)""").param(idArray).query((rs, n) -> {
			ObjectNode document = json.createObjectNode();
			document.put("format", RunDocumentReader.FORMAT);
			document.put("title", rs.getString("title"));
			document.put("role", rs.getString("role"));
			Timestamp recordedAt = rs.getTimestamp("recorded_at");
			if (recordedAt != null) {
				document.put("recorded_at", recordedAt.toInstant().toString());
			}
			json.readTree(rs.getString("provenance")).forEachEntry(document::set);
			document.putArray("cells");
			return new RunRow(new RunId(rs.getString("id")), document, rs.getString("workload_fingerprint"),
					rs.getTimestamp("uploaded_at").toInstant(), rs.getString("uploaded_by"));
		}).list();
	}

	/** The bytes of an uploaded file, exactly as uploaded. */
	public Optional<StoredFile> file(RunId id, int position) {
		return jdbc.sql("select file_name, media_type, content from run_file where run_id = ? and position = ?")
			.params(id.value(), position)
			.query((rs, n) -> new StoredFile(rs.getString("file_name"), rs.getString("media_type"),
					rs.getBytes("content")))
			.optional();
	}

	/** An uploaded file with its content. */
	public record StoredFile(String fileName, String mediaType, byte[] content) {
	}

	/**
	 * A cell's samples read from their stored JSON without building a tree: the same
	 * samples {@link RunDocumentReader#cells} makes of the same JSON (status and token
	 * counts by name, every other number a metric, in stored order).
	 */
	private List<Sample> samples(@Nullable String text) {
		List<Sample> samples = new ArrayList<>();
		if (text == null) {
			return samples;
		}
		try (JsonParser parser = json.createParser(text)) {
			if (parser.nextToken() != JsonToken.START_ARRAY) {
				return samples;
			}
			JsonToken token;
			while ((token = parser.nextToken()) != JsonToken.END_ARRAY) {
				if (token != JsonToken.START_OBJECT) {
					parser.skipChildren();
					samples.add(new Sample(null, null, null, Map.of()));
					continue;
				}
				String status = null;
				Double outputTokens = null;
				Double reasoningTokens = null;
				Map<String, Double> metrics = new LinkedHashMap<>();
				while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
					String name = parser.currentName();
					JsonToken value = parser.nextToken();
					boolean number = value == JsonToken.VALUE_NUMBER_INT || value == JsonToken.VALUE_NUMBER_FLOAT;
					switch (name) {
						case "status" -> status = value.isScalarValue() && value != JsonToken.VALUE_NULL
								? parser.<JsonNode>readValueAsTree().asString() : skip(parser);
						case "output_tokens" -> outputTokens = number ? parser.getDoubleValue() : skip(parser);
						case "reasoning_tokens" -> reasoningTokens = number ? parser.getDoubleValue() : skip(parser);
						default -> {
							if (number) {
								metrics.put(name, parser.getDoubleValue());
							}
							else {
								parser.skipChildren();
							}
						}
					}
				}
				samples.add(new Sample(status, outputTokens, reasoningTokens, metrics));
			}
		}
		return samples;
	}

	private static <T> @Nullable T skip(JsonParser parser) {
		parser.skipChildren();
		return null;
	}

	private void putJson(ObjectNode node, String field, @Nullable String value) {
		if (value != null) {
			node.set(field, json.readTree(value));
		}
	}

	private static void putInt(ObjectNode node, String field, ResultSet rs, String column) throws SQLException {
		int value = rs.getInt(column);
		if (rs.wasNull()) {
			node.putNull(field);
		}
		else {
			node.put(field, value);
		}
	}

}
