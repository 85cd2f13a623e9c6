package dev.parity.run;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import javax.sql.DataSource;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * Each run's bootstrap medians per cell × metric, computed from the cell's per-request
 * samples after the run's upload ({@link BootstrapJobs}) and stored beside the cells
 * (table {@code cell_bootstrap}, append-only), so that a comparison of two single runs
 * only pairs them. The same medians can always be computed again from the samples
 * ({@link Medians}, seeded from the run id, the anchor and the metric): a run stored
 * before this table existed, or restored from a backup, gives the same numbers.
 */
@Repository
public class CellBootstraps {

	private final JdbcClient jdbc;

	private final DataSource dataSource;

	private final Medians computed;

	CellBootstraps(JdbcClient jdbc, DataSource dataSource, Medians computed) {
		this.jdbc = jdbc;
		this.dataSource = dataSource;
		this.computed = computed;
	}

	/**
	 * Computes and stores a run's medians from its cells (with their samples), in the
	 * caller's transaction: what a {@link BootstrapJobs} job does for a stored or
	 * restored run.
	 */
	@Transactional(propagation = Propagation.MANDATORY)
	public void store(RunId run, List<Cell> cells) {
		List<Row> rows = new ArrayList<>();
		long values = 0;
		for (Cell cell : cells) {
			if (cell.samples().size() < MIN_SAMPLES) {
				continue;
			}
			values += values(cell);
			if (values > MAX_VALUES_AT_INGEST) {
				break;
			}
			rows.addAll(of(run, cell, computed));
		}
		try {
			insert(DataSourceUtils.getConnection(dataSource), run, rows);
		}
		catch (SQLException ex) {
			throw new IllegalStateException("cannot store the bootstrap medians of run " + run, ex);
		}
	}

	/** One cell × metric of one run. */
	public record Key(String runId, String anchor, String metric) {
	}

	/** Fewer samples of a metric than this never give bootstrap medians. */
	static final int MIN_SAMPLES = 10;

	/**
	 * Sample values per run resampled after its upload, at most (1,000 resamples each:
	 * about 0.3–1 s of one core). Beyond it, the remaining cells are left to the
	 * comparisons that need them, which compute the same medians from the samples (a 100
	 * MB document of 2 million samples would otherwise keep a core busy for minutes).
	 */
	static final long MAX_VALUES_AT_INGEST = 200_000;

	/**
	 * How a run's bootstrap medians of a cell × metric are computed: by the statistics of
	 * comparisons ({@code compare.SampleMedians}), which this module does not depend on.
	 */
	@FunctionalInterface
	public interface Medians {

		/** The medians; none when the cell has too few samples of the metric. */
		double[] of(String runId, Cell cell, String metric);

	}

	/** The stored medians of these runs, by run, anchor and metric. */
	public Map<Key, double[]> find(Collection<RunId> runs) {
		Map<Key, double[]> found = new HashMap<>();
		if (runs.isEmpty()) {
			return found;
		}
		String[] ids = runs.stream().map(RunId::value).toArray(String[]::new);
		new org.springframework.jdbc.core.JdbcTemplate(dataSource).query(connection -> {
			java.sql.PreparedStatement statement = connection.prepareStatement(
					"select run_id, anchor, metric, medians, packed from cell_bootstrap where run_id = any(?)");
			// In PostgreSQL's binary format from the first execution (a threshold of -1
			// forces it): as text, a comparison
			// of two 400-cell runs spent most of its time turning 3 million numbers into
			// text and back.
			statement.unwrap(org.postgresql.PGStatement.class).setPrepareThreshold(-1);
			statement.setArray(1, connection.createArrayOf("varchar", ids));
			return statement;
		}, (ResultSet rs) -> {
			byte[] packed = rs.getBytes("packed");
			double[] medians = packed != null ? PackedMedians.unpack(packed) : legacy(rs.getArray("medians"));
			found.put(new Key(rs.getString("run_id"), rs.getString("anchor"), rs.getString("metric")), medians);
		});
		return found;
	}

	/** Medians stored before they were packed (V36): a float8[]. */
	private static double[] legacy(Array array) throws SQLException {
		Object[] values = (Object[]) array.getArray();
		double[] medians = new double[values.length];
		for (int i = 0; i < values.length; i++) {
			medians[i] = ((Number) values[i]).doubleValue();
		}
		return medians;
	}

	/**
	 * How many sample values resampling this cell's metrics takes: its samples times the
	 * metrics they record.
	 */
	static long values(Cell cell) {
		Set<String> metrics = new LinkedHashSet<>();
		cell.samples().forEach(sample -> metrics.addAll(sample.metrics().keySet()));
		return (long) cell.samples().size() * metrics.size();
	}

	/**
	 * The medians of every metric a cell's samples record (with enough samples), read
	 * from the cell's JSON.
	 */
	static List<Row> of(RunId run, Cell cell, Medians computed) {
		Set<String> metrics = new LinkedHashSet<>();
		cell.samples().forEach(sample -> metrics.addAll(sample.metrics().keySet()));
		List<Row> rows = new ArrayList<>();
		for (String metric : metrics) {
			double[] medians = computed.of(run.value(), cell, metric);
			if (medians.length > 0) {
				rows.add(new Row(cell.anchor(), metric, medians));
			}
		}
		return rows;
	}

	/** A row to store. */
	record Row(String anchor, String metric, double[] medians) {
	}

	/** Stores a run's rows on the connection of its upload (after its run row). */
	static void insert(Connection connection, RunId run, List<Row> rows) throws SQLException {
		if (rows.isEmpty()) {
			return;
		}
		try (PreparedStatement insert = connection
			.prepareStatement("insert into cell_bootstrap (run_id, anchor, metric, packed) values (?, ?, ?, ?)")) {
			for (Row row : rows) {
				insert.setString(1, run.value());
				insert.setString(2, row.anchor());
				insert.setString(3, row.metric());
				insert.setBytes(4, PackedMedians.pack(row.medians()));
				insert.addBatch();
			}
			insert.executeBatch();
		}
	}

}
