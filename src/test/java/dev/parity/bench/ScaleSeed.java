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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

import dev.parity.history.SeriesKey;
import dev.parity.run.Cell;
import dev.parity.run.CellBootstraps;
import dev.parity.run.RunId;
import dev.parity.run.RunRepository;
import dev.parity.run.CellStatistics;
import dev.parity.run.Provenance;
import dev.parity.run.WorkloadFingerprint;
import org.jspecify.annotations.Nullable;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyManager;
import org.postgresql.copy.PGCopyOutputStream;

import org.springframework.context.ApplicationContext;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Seeds a team's database as the application writes an upload: runs with realistic
 * provenance spread over ten years ({@code COPY}); their cells, written by the database
 * itself (params, request counts, output tokens, metrics; for one run in
 * {@value #WITH_SAMPLES} also {@value #SAMPLES} per-request samples per cell); every
 * run's statistics marker, and for the runs with samples their cell statistics and median
 * windows computed by the application from the cells as stored (as after a restore); each
 * measured run's series and membership, one small file per run (a stand-in for the
 * uploaded document: see the scaling section of performance.md for the bytes a real one
 * adds), caveats and a few retractions. Series analyses are not written: the application
 * computes one when the series is first read, as after a restore.
 */
public final class ScaleSeed {

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
	public record Seeded(int runs, long cells, int caveats, int retractions, int series, int withSamples,
			List<String> ids, double seconds) {
	}

	/**
	 * The runs of one seed: ids begin with {@code prefix}; the first {@code seriesRuns}
	 * are one series (measured, one a day, on their own branch {@code seriesBranch},
	 * their decode speed 10 % lower from the last fifth on: a change point to alert on).
	 * Every run's commit is one of 200, which begin with {@code commitPrefix} when it is
	 * given (a near-empty database whose run lists show the rows the same lists show at
	 * scale).
	 */
	public record Shape(String prefix, int seriesRuns, String seriesBranch, @Nullable String commitPrefix) {

		public Shape(String prefix, int seriesRuns, String seriesBranch) {
			this(prefix, seriesRuns, seriesBranch, null);
		}

	}

	/** The dedicated series' system, model, engine and harness. */
	static final String SERIES_SYSTEM = "h100-node", SERIES_MODEL = "meta-llama/Llama-3.1-70B-Instruct",
			SERIES_ENGINE = "vllm", SERIES_HARNESS = "vllm-bench-serve";

	/** The branch of runs that name none (the application's default). */
	private static final String DEFAULT_BRANCH = "main";

	/** The declared workload of every seeded run, canonically serialised. */
	private static final String WORKLOAD = WorkloadFingerprint
		.declared(new Provenance.Workload("random", 512, null, null, null));

	/**
	 * What the application derives from a run's samples when it reaches the database
	 * otherwise than by an upload (as a restore does): its cell statistics with their
	 * marker, and the sorted samples around each median.
	 */
	@FunctionalInterface
	public interface Derive {

		void derive(List<String> runIds) throws Exception;

	}

	public static Seeded seed(Connection connection, int runs, int cellsPerRun, long seed, Shape shape, Derive derive,
			Consumer<String> log) throws Exception {
		long start = System.nanoTime();
		Map<String, SeriesKey> series = new LinkedHashMap<>();
		List<String[]> members = new ArrayList<>();
		Random random = new Random(seed);
		CopyManager copy = connection.unwrap(PGConnection.class).getCopyAPI();
		List<String> commits = new ArrayList<>();
		for (int i = 0; i < 200; i++) {
			String commit = RunDocuments.randomCommit(random);
			commits.add(shape.commitPrefix() == null ? commit
					: shape.commitPrefix() + commit.substring(shape.commitPrefix().length()));
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
				String id = id(shape, i);
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
				String title = (reference ? "Published table: " : inSeries ? "Nightly sweep " : "Sweep ")
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
		long cells = cells(connection, shape, runs, cellsPerRun, random);
		log.accept(
				String.format(Locale.ROOT, "%,d cells inserted in %.0f s", cells, (System.nanoTime() - start) / 1e9));
		try (Statement statement = connection.createStatement()) {
			// The statistics marker of every run without samples, as RunWriter writes it
			// after its cells (no statistics rows: the marker alone). Those with samples
			// get theirs below, from the application. The seed's ids alone: an uploaded
			// run's random id may begin with the same letter.
			statement.execute(
					"insert into run_statistics (run_id, computed_under) select id, '" + CellStatistics.computedUnder(5)
							+ "' from run where id ~ '^" + shape.prefix() + "[0-9]{9}$' and substring(id from "
							+ (shape.prefix().length() + 1) + ")::int % " + WITH_SAMPLES + " <> 0");
		}
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
		List<String> withSamples = new ArrayList<>();
		for (int i = 0; i < runs; i += WITH_SAMPLES) {
			withSamples.add(ids.get(i));
		}
		long derived = System.nanoTime();
		derive.derive(withSamples);
		log.accept(String.format(Locale.ROOT, "statistics and median windows of %,d runs with samples in %.0f s",
				withSamples.size(), (System.nanoTime() - derived) / 1e9));
		try (Statement statement = connection.createStatement()) {
			statement.execute("vacuum analyze");
		}
		return new Seeded(runs, cells, caveats, retractions, series.size(), (runs + WITH_SAMPLES - 1) / WITH_SAMPLES,
				ids, (System.nanoTime() - start) / 1e9);
	}

	/**
	 * The seed's cells, written by the database itself ({@code INSERT … SELECT} over
	 * {@code generate_series}, a thousand runs a statement) as RunWriter's {@code COPY}
	 * writes an upload's: params, anchor, execution order, request counts, output tokens,
	 * metrics and, for one run in {@value #WITH_SAMPLES}, {@value #SAMPLES} per-request
	 * samples in completion order. The cells' foreign key to their run is not checked row
	 * by row (the session replicates): each cell is made from a run row just written.
	 */
	private static long cells(Connection connection, Shape shape, int runs, int cellsPerRun, Random random)
			throws SQLException {
		int side = (int) Math.ceil(Math.sqrt(cellsPerRun));
		int from = shape.prefix().length() + 1;
		int slowFrom = shape.seriesRuns() * 4 / 5;
		long cells = 0;
		try (Statement statement = connection.createStatement()) {
			statement.execute("select setseed(" + (random.nextDouble() * 2 - 1) + ")");
			statement.execute("set local session_replication_role = replica");
			for (int first = 0; first < runs; first += 1000) {
				int last = Math.min(runs, first + 1000);
				cells += statement.executeUpdate(String.format(Locale.ROOT,
						"""
								insert into cell (run_id, position, params, anchor, exec_order, completed, failed, cancelled,
								                  output_tokens, metrics, samples)
								select r.id, c.position, jsonb_build_object('concurrency', g.concurrency, 'prompt_tokens', g.prompt),
								       'cell-concurrency-' || g.concurrency || '--prompt_tokens-' || g.prompt, c.position + 1, 32, 0, 0,
								       '{"max": 530, "min": 490, "mean": 511.8, "median": 512}'::jsonb,
								       jsonb_build_object('ttft_s', round(m.ttft::numeric, 4), 'decode_tps', round(m.decode::numeric, 3),
								                          'throughput_tps', round((m.decode * g.concurrency)::numeric, 2)),
								       case when r.n %% %4$d = 0 then (
								         select jsonb_agg(jsonb_build_object('status', 'ok',
								                  'ttft_s', round((m.ttft * (1 + 0.05 * random_normal()))::numeric, 3),
								                  'decode_tps', round((m.decode * (1 + 0.03 * random_normal()))::numeric, 2),
								                  'output_tokens', 500 + floor(random() * 25)::int) order by q)
								         from generate_series(1, %5$d) q) end
								from (select id, substring(id from %1$d)::int as n from run where id >= '%6$s' and id < '%7$s') r
								cross join lateral generate_series(0, %2$d - 1) c (position)
								cross join lateral (select 1 + c.position %% %3$d as concurrency,
								                           128 * (1 + c.position / %3$d) as prompt) g
								cross join lateral (select 0.02 + g.prompt / 20000.0 * (1 + 0.05 * random_normal()) as ttft,
								                           (case when r.n >= %8$d and r.n < %9$d then 63 else 70 end) / sqrt(g.concurrency)
								                           * (1 + 0.03 * random_normal()) as decode) m
								order by r.id, c.position""",
						from, cellsPerRun, side, WITH_SAMPLES, SAMPLES, id(shape, first), id(shape, last), slowFrom,
						shape.seriesRuns()));
			}
			statement.execute("set local session_replication_role = origin");
		}
		return cells;
	}

	/**
	 * The application's derivation of a run's statistics and median windows from its
	 * cells as stored, as a restore and a median-window job do (one transaction a run, on
	 * two threads).
	 */
	public static Derive byApplication(ApplicationContext app) {
		RunRepository runs = app.getBean(RunRepository.class);
		CellStatistics statistics = app.getBean(CellStatistics.class);
		CellBootstraps windows = app.getBean(CellBootstraps.class);
		TransactionTemplate transaction = new TransactionTemplate(app.getBean(PlatformTransactionManager.class));
		return ids -> {
			ExecutorService pool = Executors.newFixedThreadPool(2);
			try {
				List<Future<?>> done = new ArrayList<>();
				for (String id : ids) {
					done.add(pool.submit(() -> transaction.executeWithoutResult(status -> {
						RunId run = new RunId(id);
						List<Cell> cells = runs.find(run).orElseThrow().cells();
						statistics.store(run, cells);
						windows.store(run, cells);
					})));
				}
				for (Future<?> future : done) {
					future.get();
				}
			}
			finally {
				pool.shutdown();
			}
		};
	}

	/** The id of a seed's {@code i}-th run. */
	static String id(Shape shape, int i) {
		return String.format("%s%09d", shape.prefix(), i);
	}

	/** The anchor of a seeded run's {@code c}-th cell, as the cells are seeded. */
	private static String anchor(int c, int side) {
		return "cell-concurrency-" + (1 + c % side) + "--prompt_tokens-" + 128 * (1 + c / side);
	}

	/**
	 * One seeded run in this many had per-request samples (statistics and bootstrap
	 * medians stored).
	 */
	public static final int WITH_SAMPLES = 50;

	/** The per-request samples of a cell of a run that has them. */
	public static final int SAMPLES = 32;

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
