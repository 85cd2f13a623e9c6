package dev.parity.bench;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Set;

import org.postgresql.copy.CopyManager;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The physical limit of storing a run document: reading its bytes with Jackson, and
 * {@code COPY}ing the rows the application stores for it (one run row, a row per cell
 * with its jsonb columns, the file's bytes) into scratch tables of the same database, in
 * one committed transaction.
 */
final class IngestLimit {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private IngestLimit() {
	}

	/** The rows of one document, ready to be copied: prepared before the clock starts. */
	record Rows(byte[] run, byte[] cells, byte[] file) {
	}

	static void createScratchTables(Connection connection) throws SQLException {
		try (Statement statement = connection.createStatement()) {
			statement.execute("create table if not exists bench_run (like run including all)");
			statement.execute("create table if not exists bench_cell (like cell including all)");
			statement.execute("create table if not exists bench_file (like run_file including all)");
		}
	}

	/**
	 * Milliseconds for one pass of Jackson's tokenizer over every token of the document
	 * (names and values read).
	 */
	static double parseMillis(byte[] document) {
		long start = System.nanoTime();
		long sink = 0;
		try (JsonParser parser = JSON.createParser(document)) {
			JsonToken token;
			while ((token = parser.nextToken()) != null) {
				switch (token) {
					case PROPERTY_NAME, VALUE_STRING -> sink += parser.getString().length();
					case VALUE_NUMBER_INT -> sink += parser.getLongValue();
					case VALUE_NUMBER_FLOAT -> sink += (long) parser.getDoubleValue();
					default -> sink++;
				}
			}
		}
		if (sink == 42) {
			System.out.print("");
		}
		return (System.nanoTime() - start) / 1e6;
	}

	/** Milliseconds for Jackson to read the document into a tree. */
	static double treeMillis(byte[] document) {
		long start = System.nanoTime();
		JsonNode tree = JSON.readTree(document);
		if (tree.size() == 0) {
			throw new AssertionError();
		}
		return (System.nanoTime() - start) / 1e6;
	}

	static Rows rows(String id, byte[] document) {
		JsonNode tree = JSON.readTree(document);
		StringBuilder run = new StringBuilder();
		StringBuilder provenance = new StringBuilder("{");
		tree.forEachEntry((name, value) -> {
			if (!Set.of("format", "title", "role", "recorded_at", "cells").contains(name)) {
				provenance.append(provenance.length() == 1 ? "" : ",")
					.append(JSON.writeValueAsString(name))
					.append(':')
					.append(JSON.writeValueAsString(value));
			}
		});
		provenance.append('}');
		run.append(id)
			.append('\t')
			.append(Integer.toHexString(id.hashCode()))
			.append("sha\t")
			.append(escape(tree.get("title").asString()))
			.append("\tmeasured\t")
			.append(escape(tree.at("/system/name").asString()))
			.append('\t')
			.append(escape(tree.at("/model/repo").asString()))
			.append("\tmain\t")
			.append(tree.at("/model/commit").asString())
			.append("\tvllm\t0.11.2\tbench-harness\t1.0\t\\N\t")
			.append(tree.get("recorded_at").asString())
			.append('\t')
			.append("f".repeat(64))
			.append('\t')
			.append(escape(provenance.toString()))
			.append('\t')
			.append(tree.get("cells").size())
			.append("\tbench\n");
		StringBuilder cells = new StringBuilder(document.length + document.length / 10);
		int position = 0;
		for (JsonNode cell : tree.get("cells")) {
			cells.append(id)
				.append('\t')
				.append(position++)
				.append('\t')
				.append(escape(JSON.writeValueAsString(cell.get("params"))))
				.append("\tcell-anchor-")
				.append(position)
				.append('\t')
				.append(cell.get("order").asInt())
				.append('\t')
				.append(cell.at("/requests/completed").asInt())
				.append("\t0\t0\t")
				.append(escape(JSON.writeValueAsString(cell.get("output_tokens"))))
				.append("\t\\N\t")
				.append(escape(JSON.writeValueAsString(cell.get("metrics"))))
				.append('\t')
				.append(escape(JSON.writeValueAsString(cell.get("samples"))))
				.append('\n');
		}
		return new Rows(run.toString().getBytes(StandardCharsets.UTF_8),
				cells.toString().getBytes(StandardCharsets.UTF_8), binaryFileRow(id, document));
	}

	/**
	 * Milliseconds to COPY the rows into the scratch tables and commit; the tables are
	 * emptied afterwards.
	 */
	static double copyMillis(Connection connection, CopyManager copy, Rows rows) throws SQLException, IOException {
		boolean autoCommit = connection.getAutoCommit();
		connection.setAutoCommit(false);
		long start = System.nanoTime();
		copy.copyIn("""
				copy bench_run (id, upload_sha256, title, role, system_name, model_repo, model_revision, model_commit,
				                engine_name, engine_version, harness_name, harness_version, source_url, recorded_at,
				                workload_fingerprint, provenance, cell_count, uploaded_by) from stdin""",
				new ByteArrayInputStream(rows.run()));
		copy.copyIn("""
				copy bench_cell (run_id, position, params, anchor, exec_order, completed, failed, cancelled,
				                 output_tokens, reasoning_tokens, metrics, samples) from stdin""",
				new ByteArrayInputStream(rows.cells()));
		copy.copyIn("copy bench_file (run_id, position, file_name, media_type, sha256, size_bytes, content) "
				+ "from stdin (format binary)", new ByteArrayInputStream(rows.file()));
		connection.commit();
		double millis = (System.nanoTime() - start) / 1e6;
		connection.setAutoCommit(autoCommit);
		try (Statement statement = connection.createStatement()) {
			statement.execute("truncate bench_run, bench_cell, bench_file");
		}
		return millis;
	}

	private static byte[] binaryFileRow(String id, byte[] content) {
		try {
			ByteArrayOutputStream bytes = new ByteArrayOutputStream(content.length + 256);
			DataOutputStream out = new DataOutputStream(bytes);
			out.writeBytes("PGCOPY\n");
			out.write(0xFF);
			out.writeBytes("\r\n");
			out.write(0);
			out.writeInt(0);
			out.writeInt(0);
			out.writeShort(7);
			text(out, id);
			out.writeInt(4);
			out.writeInt(0);
			text(out, "document.json");
			text(out, "application/json");
			text(out, "e".repeat(64));
			out.writeInt(8);
			out.writeLong(content.length);
			out.writeInt(content.length);
			out.write(content);
			out.writeShort(-1);
			out.flush();
			return bytes.toByteArray();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static void text(DataOutputStream out, String value) throws IOException {
		byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
		out.writeInt(bytes.length);
		out.write(bytes);
	}

	/** COPY's text format: backslash, tab, newline and carriage return escaped. */
	static String escape(String value) {
		StringBuilder out = null;
		for (int i = 0; i < value.length(); i++) {
			char c = value.charAt(i);
			String replacement = switch (c) {
				case '\\' -> "\\\\";
				case '\t' -> "\\t";
				case '\n' -> "\\n";
				case '\r' -> "\\r";
				default -> null;
			};
			if (replacement != null && out == null) {
				out = new StringBuilder(value.length() + 16).append(value, 0, i);
			}
			if (out != null) {
				if (replacement != null) {
					out.append(replacement);
				}
				else {
					out.append(c);
				}
			}
		}
		return out == null ? value : out.toString();
	}

}
