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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

import dev.parity.history.SeriesKey;
import dev.parity.run.CellStatistics;
import dev.parity.run.PackedMedians;
import dev.parity.run.Provenance;
import dev.parity.run.WorkloadFingerprint;
import dev.parity.stats.Noise;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyManager;
import org.postgresql.copy.PGCopyOutputStream;

/**
 * Seeds a team's database with {@code COPY}, as the application writes an upload: runs
 * with realistic provenance spread over ten years, their cells (params, request counts,
 * output tokens, metrics; for one run in {@value #WITH_SAMPLES} also {@value #SAMPLES}
 * per-request samples per cell, with their cell statistics and packed bootstrap medians),
 * every run's statistics marker, each measured run's series and membership, one small
 * file per run (a stand-in for the uploaded document: see the scaling section of
 * performance.md for the bytes a real one adds), caveats and a few retractions. Series
 * analyses are not written: the application computes one when the series is first read,
 * as after a restore.
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
	record Seeded(int runs, long cells, int caveats, int retractions, int series, int withSamples, List<String> ids,
			double seconds) {
	}

	/**
	 * The runs of one seed: ids begin with {@code prefix}; the first {@code seriesRuns}
	 * are one series (measured, one a day, on their own branch {@code seriesBranch},
	 * their decode speed 10 % lower from the last fifth on: a change point to alert on).
	 */
	record Shape(String prefix, int seriesRuns, String seriesBranch) {
	}

	/** The dedicated series' system, model, engine and harness. */
	static final String SERIES_SYSTEM = "h100-node", SERIES_MODEL = "meta-llama/Llama-3.1-70B-Instruct",
			SERIES_ENGINE = "vllm", SERIES_HARNESS = "vllm-bench-serve";

	/** The branch of runs that name none (the application's default). */
	private static final String DEFAULT_BRANCH = "main";

	/** The declared workload of every seeded run, canonically serialised. */
	private static final String WORKLOAD = WorkloadFingerprint
		.declared(new Provenance.Workload("random", 512, null, null, null));

	static Seeded seed(Connection connection, int runs, int cellsPerRun, long seed, Shape shape) throws SQLException {
		long start = System.nanoTime();
		Map<String, SeriesKey> series = new LinkedHashMap<>();
		List<String[]> members = new ArrayList<>();
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
				          workload_fingerprint, provenance, cell_count, uploaded_at, uploaded_by, branch) from stdin""",
				1 << 16)) {
			StringBuilder line = new StringBuilder(1024);
			for (int i = 0; i < runs; i++) {
				String id = String.format("%s%09d", shape.prefix(), i);
				ids.add(id);
				boolean inSeries = i < shape.seriesRuns();
				String system = inSeries ? SERIES_SYSTEM : SYSTEMS[random.nextInt(SYSTEMS.length)];
				String model = inSeries ? SERIES_MODEL : MODELS[random.nextInt(MODELS.length)];
				String engine = inSeries ? SERIES_ENGINE : ENGINES[random.nextInt(ENGINES.length)];
				String harness = inSeries ? SERIES_HARNESS : HARNESSES[random.nextInt(HARNESSES.length)];
				boolean reference = !inSeries && random.nextInt(10) == 0;
				String commit = random.nextInt(8) == 0 ? null : commits.get(random.nextInt(commits.size()));
				String fingerprint = sha(random);
				// Ten years of uploads; the dedicated series one a day, in order.
				Instant uploaded = inSeries
						? now.minus(shape.seriesRuns() - i, ChronoUnit.DAYS)
							.minus(random.nextInt(600), ChronoUnit.MINUTES)
						: now.minus(1 + random.nextInt(10 * 365 * 24 * 60), ChronoUnit.MINUTES);
				String branch = inSeries ? shape.seriesBranch() : null;
				if (!reference) {
					SeriesKey key = new SeriesKey(system, model, engine, harness,
							branch == null ? DEFAULT_BRANCH : branch, WORKLOAD);
					series.putIfAbsent(key.id(), key);
					members.add(new String[] { key.id(), id });
				}
				String title = (reference ? "Published table: " : inSeries ? "Nightly " : "Sweep ")
						+ model.substring(model.indexOf('/') + 1) + " on " + system + " #" + i;
				String provenance = "{\"system\": {\"name\": \"" + system + "\"}, \"model\": {\"repo\": \"" + model
						+ "\", \"revision\": \"main\"" + (commit == null ? "" : ", \"commit\": \"" + commit + "\"")
						+ "}, \"engine\": {\"name\": \"" + engine + "\", \"version\": \"0." + random.nextInt(12)
						+ "\"}, \"harness\": {\"name\": \"" + harness + "\", \"version\": \"1.0\"}, \"workload\": "
						+ "{\"dataset\": \"random\", \"output_tokens\": 512}"
						+ (reference ? ", \"source\": {\"url\": \"https://example.org/table\"}" : "")
						+ (branch == null ? "" : ", \"context\": {\"branch\": \"" + branch + "\"}") + "}";
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
					.append("\tseed\t")
					.append(branch == null ? "\\N" : branch)
					.append('\n');
				out.write(line.toString().getBytes(StandardCharsets.UTF_8));
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		long cells = 0;
		try (OutputStream out = new PGCopyOutputStream(connection.unwrap(PGConnection.class), """
				copy cell (run_id, position, params, anchor, exec_order, completed, failed, cancelled, output_tokens,
				           metrics, samples) from stdin""", 1 << 16)) {
			StringBuilder line = new StringBuilder(512);
			int side = (int) Math.ceil(Math.sqrt(cellsPerRun));
			for (int r = 0; r < ids.size(); r++) {
				String id = ids.get(r);
				boolean samples = r % WITH_SAMPLES == 0;
				boolean slower = r < shape.seriesRuns() && r >= shape.seriesRuns() * 4 / 5;
				for (int c = 0; c < cellsPerRun; c++) {
					int prompt = 128 * (1 + c / side);
					int concurrency = 1 + c % side;
					double ttft = 0.02 + prompt / 20000.0 * (1 + 0.05 * random.nextGaussian());
					double decode = (slower ? 63 : 70) / Math.sqrt(concurrency) * (1 + 0.03 * random.nextGaussian());
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
						.append(fixed(ttft, 4))
						.append(", \"decode_tps\": ")
						.append(fixed(decode, 3))
						.append(", \"throughput_tps\": ")
						.append(fixed(decode * concurrency, 2))
						.append("}\t");
					if (samples) {
						// As uploaded: the cell's per-request samples, kept as they came.
						line.append('[');
						for (int q = 0; q < SAMPLES; q++) {
							line.append(q == 0 ? "" : ", ")
								.append("{\"status\": \"ok\", \"ttft_s\": ")
								.append(fixed(ttft * (1 + 0.05 * random.nextGaussian()), 3))
								.append(", \"decode_tps\": ")
								.append(fixed(decode * (1 + 0.03 * random.nextGaussian()), 2))
								.append(", \"output_tokens\": ")
								.append(500 + random.nextInt(25))
								.append('}');
						}
						line.append("]\n");
					}
					else {
						line.append("\\N\n");
					}
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
		try (OutputStream out = new PGCopyOutputStream(connection.unwrap(PGConnection.class), """
				copy series (id, system_name, model_repo, engine_name, harness_name, branch, workload) from stdin""",
				1 << 16)) {
			for (SeriesKey key : series.values()) {
				out.write((key.id() + "\t" + key.system() + "\t" + key.model() + "\t" + key.engine() + "\t"
						+ key.harness() + "\t" + key.branch() + "\t" + key.workload() + "\n")
					.getBytes(StandardCharsets.UTF_8));
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		try (OutputStream out = new PGCopyOutputStream(connection.unwrap(PGConnection.class),
				"copy series_run (series_id, run_id) from stdin", 1 << 16)) {
			for (String[] member : members) {
				out.write((member[0] + "\t" + member[1] + "\n").getBytes(StandardCharsets.UTF_8));
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
				out.write((shape.prefix() + "c" + HexFormat.of().toHexDigits(i) + "\t" + run
						+ "\tThe warm-up was shorter than declared (" + i + ")\tcaveat\tseed\n")
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
		return new Seeded(runs, cells, caveats, retractions, series.size(), (runs + WITH_SAMPLES - 1) / WITH_SAMPLES,
				ids, (System.nanoTime() - start) / 1e9);
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
		String under = CellStatistics.computedUnder(5);
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
						rows.write(String.format(Locale.ROOT,
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
			double[] medians = new double[Noise.RESAMPLES];
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
								+ HexFormat.of().formatHex(PackedMedians.pack(medians)) + "\n")
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
	static final int WITH_SAMPLES = 50;

	/** The per-request samples of a cell of a run that has them. */
	static final int SAMPLES = 32;

	/**
	 * {@code value} with {@code digits} decimals, as {@code %.Nf} would write it
	 * (faster).
	 */
	private static String fixed(double value, int digits) {
		long scale = digits == 2 ? 100 : digits == 3 ? 1000 : 10000;
		long scaled = Math.round(Math.abs(value) * scale);
		String fraction = Long.toString(scale + scaled % scale).substring(1);
		return (value < 0 && scaled != 0 ? "-" : "") + scaled / scale + "." + fraction;
	}

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
