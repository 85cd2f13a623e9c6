package dev.parity.bench;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;

import org.postgresql.PGConnection;
import org.postgresql.copy.CopyManager;
import org.postgresql.copy.PGCopyOutputStream;

/**
 * Seeds the run tables of a busy team's database with {@code COPY}: runs with realistic
 * provenance spread over a year, their cells (params, request counts, output tokens,
 * metrics; no samples), one small file per run, caveats and a few retractions. Writes
 * only what the application itself would have written.
 */
final class ScaleSeed {

	private static final String[] SYSTEMS = words("h100-node", "b200-node", "mi300x-box", "dgx-spark", "gaudi3-rack",
			"l40s-pair", "a100-pod", "gh200-superchip", "trn2-node", "tpu-v5e-slice");

	private static final String[] MODELS = words("meta-llama/Llama-3.1-70B-Instruct", "Qwen/Qwen3-235B-A22B",
			"deepseek-ai/DeepSeek-V3", "mistralai/Mixtral-8x22B", "google/gemma-3-27b-it", "openai/gpt-oss-120b");

	private static final String[] ENGINES = { "vllm", "sglang", "tensorrt-llm", "llama.cpp" };

	private static final String[] HARNESSES = { "vllm-bench-serve", "sglang-bench-serving", "genai-perf", "guidellm",
			"llmperf", "aiperf", "llama-benchy", "reference-harness" };

	private ScaleSeed() {
	}

	/** What was seeded, and how long it took. */
	record Seeded(int runs, long cells, int caveats, int retractions, double seconds) {
	}

	static Seeded seed(Connection connection, int runs, int cellsPerRun, long seed) throws SQLException {
		long start = System.nanoTime();
		Random random = new Random(seed);
		CopyManager copy = connection.unwrap(PGConnection.class).getCopyAPI();
		List<String> commits = new ArrayList<>();
		for (int i = 0; i < 200; i++) {
			commits.add(RunDocuments.randomCommit(random));
		}
		List<String> ids = new ArrayList<>(runs);
		Instant now = Instant.now();
		boolean autoCommit = connection.getAutoCommit();
		connection.setAutoCommit(false);
		try (OutputStream out = new PGCopyOutputStream(connection.unwrap(PGConnection.class), """
				copy run (id, upload_sha256, title, role, system_name, model_repo, model_revision, model_commit,
				          engine_name, engine_version, harness_name, harness_version, source_url, recorded_at,
				          workload_fingerprint, provenance, cell_count, uploaded_at, uploaded_by) from stdin""",
				1 << 16)) {
			StringBuilder line = new StringBuilder(1024);
			for (int i = 0; i < runs; i++) {
				String id = String.format("s%09d", i);
				ids.add(id);
				String system = SYSTEMS[random.nextInt(SYSTEMS.length)];
				String model = MODELS[random.nextInt(MODELS.length)];
				String engine = ENGINES[random.nextInt(ENGINES.length)];
				String harness = HARNESSES[random.nextInt(HARNESSES.length)];
				boolean reference = random.nextInt(10) == 0;
				String commit = random.nextInt(8) == 0 ? null : commits.get(random.nextInt(commits.size()));
				String fingerprint = sha(random);
				Instant uploaded = now.minus(1 + random.nextInt(365 * 24 * 60), ChronoUnit.MINUTES);
				String title = (reference ? "Published table: " : "Sweep ") + model.substring(model.indexOf('/') + 1)
						+ " on " + system + " #" + i;
				String provenance = "{\"system\": {\"name\": \"" + system + "\"}, \"model\": {\"repo\": \"" + model
						+ "\", \"revision\": \"main\"" + (commit == null ? "" : ", \"commit\": \"" + commit + "\"")
						+ "}, \"engine\": {\"name\": \"" + engine + "\", \"version\": \"0." + random.nextInt(12)
						+ "\"}, \"harness\": {\"name\": \"" + harness + "\", \"version\": \"1.0\"}, \"workload\": "
						+ "{\"dataset\": \"random\", \"output_tokens\": 512}"
						+ (reference ? ", \"source\": {\"url\": \"https://example.org/table\"}" : "") + "}";
				line.setLength(0);
				line.append(id)
					.append('\t')
					.append(sha(random))
					.append('\t')
					.append(title)
					.append('\t')
					.append(reference ? "reference" : "measured")
					.append('\t')
					.append(system)
					.append('\t')
					.append(model)
					.append("\tmain\t")
					.append(commit == null ? "\\N" : commit)
					.append('\t')
					.append(engine)
					.append("\t0.11\t")
					.append(harness)
					.append("\t1.0\t")
					.append(reference ? "https://example.org/table" : "\\N")
					.append('\t')
					.append(uploaded)
					.append('\t')
					.append(fingerprint)
					.append('\t')
					.append(provenance)
					.append('\t')
					.append(cellsPerRun)
					.append('\t')
					.append(uploaded)
					.append("\tseed\n");
				out.write(line.toString().getBytes(StandardCharsets.UTF_8));
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		long cells = 0;
		try (OutputStream out = new PGCopyOutputStream(connection.unwrap(PGConnection.class), """
				copy cell (run_id, position, params, anchor, exec_order, completed, failed, cancelled, output_tokens,
				           metrics) from stdin""", 1 << 16)) {
			StringBuilder line = new StringBuilder(512);
			int side = (int) Math.ceil(Math.sqrt(cellsPerRun));
			for (String id : ids) {
				for (int c = 0; c < cellsPerRun; c++) {
					int prompt = 128 * (1 + c / side);
					int concurrency = 1 + c % side;
					double ttft = 0.02 + prompt / 20000.0 * (1 + 0.05 * random.nextGaussian());
					double decode = 70 / Math.sqrt(concurrency) * (1 + 0.03 * random.nextGaussian());
					line.setLength(0);
					line.append(id)
						.append('\t')
						.append(c)
						.append("\t{\"concurrency\": ")
						.append(concurrency)
						.append(", \"prompt_tokens\": ")
						.append(prompt)
						.append("}\tcell-concurrency-")
						.append(concurrency)
						.append("--prompt_tokens-")
						.append(prompt)
						.append('\t')
						.append(c + 1)
						.append("\t32\t0\t0\t")
						.append("{\"max\": 530, \"min\": 490, \"mean\": 511.8, \"median\": 512}\t")
						.append("{\"ttft_s\": ")
						.append(String.format(java.util.Locale.ROOT, "%.4f", ttft))
						.append(", \"decode_tps\": ")
						.append(String.format(java.util.Locale.ROOT, "%.3f", decode))
						.append(", \"throughput_tps\": ")
						.append(String.format(java.util.Locale.ROOT, "%.2f", decode * concurrency))
						.append("}\n");
					out.write(line.toString().getBytes(StandardCharsets.UTF_8));
					cells++;
				}
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		statistics(connection, ids, cellsPerRun, random);
		try (OutputStream out = new PGCopyOutputStream(connection.unwrap(PGConnection.class), """
				copy run_file (run_id, position, file_name, media_type, sha256, size_bytes, content) from stdin""",
				1 << 16)) {
			for (String id : ids) {
				out.write((id + "\t0\tdocument.json\tapplication/json\t" + sha(random) + "\t2\t\\\\x7b7d\n")
					.getBytes(StandardCharsets.UTF_8));
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		int caveats = runs / 2;
		try (OutputStream out = new PGCopyOutputStream(connection.unwrap(PGConnection.class), """
				copy caveat (id, run_id, text, kind, created_by) from stdin""", 1 << 16)) {
			for (int i = 0; i < caveats; i++) {
				String run = ids.get(random.nextInt(ids.size()));
				out.write(
						("c" + HexFormat.of().toHexDigits(i) + "\t" + run + "\tThe warm-up was shorter than declared ("
								+ i + ")\tcaveat\tseed\n")
							.getBytes(StandardCharsets.UTF_8));
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		int retractions = runs / 50;
		try (OutputStream out = new PGCopyOutputStream(connection.unwrap(PGConnection.class), """
				copy retraction (subject_kind, subject_id, kind, reason, created_by) from stdin""", 1 << 16)) {
			for (int i = 0; i < retractions; i++) {
				out.write(("run\t" + ids.get(random.nextInt(ids.size())) + "\tretracted\tWrong checkpoint\tseed\n")
					.getBytes(StandardCharsets.UTF_8));
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		connection.commit();
		connection.setAutoCommit(autoCommit);
		try (Statement statement = connection.createStatement()) {
			statement.execute("vacuum analyze");
		}
		return new Seeded(runs, cells, caveats, retractions, (System.nanoTime() - start) / 1e9);
	}

	/**
	 * What the application stores of runs' samples: every run's statistics marker
	 * ({@code run_statistics}); for one run in {@value #WITH_SAMPLES}, as if it had 32
	 * samples per cell, each cell's statistics of two metrics and its output tokens
	 * ({@code cell_statistics}) and the two metrics' packed bootstrap medians
	 * ({@code cell_bootstrap}).
	 */
	private static void statistics(Connection connection, List<String> ids, int cellsPerRun, Random random)
			throws SQLException {
		String under = dev.parity.run.CellStatistics.computedUnder(5);
		int side = (int) Math.ceil(Math.sqrt(cellsPerRun));
		PGConnection pg = connection.unwrap(PGConnection.class);
		try (OutputStream markers = new PGCopyOutputStream(pg,
				"copy run_statistics (run_id, computed_under) from stdin", 1 << 16)) {
			for (String id : ids) {
				markers.write((id + "\t" + under + "\n").getBytes(StandardCharsets.UTF_8));
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		try (OutputStream rows = new PGCopyOutputStream(pg,
				"""
						copy cell_statistics (run_id, anchor, metric, computed_under, position, ok_position, sample_count, count,
						                      median, mean, sd, mad, min, max, worst_index, worst_value, worst_z, beyond) from stdin""",
				1 << 16)) {
			for (int r = 0; r < ids.size(); r += WITH_SAMPLES) {
				for (int c = 0; c < cellsPerRun; c++) {
					String anchor = anchor(c, side);
					String[] metrics = { "ttft_s", "decode_tps", "output_tokens" };
					for (int m = 0; m < metrics.length; m++) {
						double median = m == 0 ? 0.05 : m == 1 ? 60 : 512;
						rows.write(String.format(java.util.Locale.ROOT,
								"%s\t%s\t%s\t%s\t%d\t%d\t32\t32\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t3\t%.4f\t2.1\t0\n",
								ids.get(r), anchor, metrics[m], under, m == 2 ? -1 : m, m == 2 ? 0 : m, median,
								median * 1.01, median * 0.05, median * 0.03, median * 0.9, median * 1.2, median * 1.2)
							.getBytes(StandardCharsets.UTF_8));
					}
				}
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		try (OutputStream rows = new PGCopyOutputStream(pg,
				"copy cell_bootstrap (run_id, anchor, metric, packed) from stdin", 1 << 16)) {
			double[] medians = new double[dev.parity.stats.Noise.RESAMPLES];
			for (int r = 0; r < ids.size(); r += WITH_SAMPLES) {
				for (int c = 0; c < cellsPerRun; c++) {
					String anchor = anchor(c, side);
					for (String metric : new String[] { "ttft_s", "decode_tps" }) {
						for (int b = 0; b < medians.length; b++) {
							medians[b] = 0.05 + random.nextInt(24) / 1000.0; // medians of
																				// 32
																				// samples:
																				// a few
																				// values
						}
						rows.write((ids.get(r) + "\t" + anchor + "\t" + metric + "\t\\\\x"
								+ HexFormat.of().formatHex(dev.parity.run.PackedMedians.pack(medians)) + "\n")
							.getBytes(StandardCharsets.UTF_8));
					}
				}
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** The anchor of a seeded run's {@code c}-th cell, as the cells are seeded. */
	private static String anchor(int c, int side) {
		return "cell-concurrency-" + (1 + c % side) + "--prompt_tokens-" + 128 * (1 + c / side);
	}

	/**
	 * One seeded run in this many had per-request samples (statistics and bootstrap
	 * medians stored).
	 */
	private static final int WITH_SAMPLES = 50;

	private static String sha(Random random) {
		byte[] bytes = new byte[32];
		random.nextBytes(bytes);
		return HexFormat.of().formatHex(bytes);
	}

	private static String[] words(String... words) {
		return words;
	}

	static CopyManager copyManager(Connection connection) throws SQLException {
		return connection.unwrap(PGConnection.class).getCopyAPI();
	}

}
