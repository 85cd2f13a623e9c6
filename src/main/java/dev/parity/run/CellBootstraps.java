package dev.parity.run;

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

import org.jspecify.annotations.Nullable;
import org.postgresql.PGStatement;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * Each run's sorted samples around the median per cell × metric ({@link Window}): what
 * the exact bootstrap law of the median needs ({@code stats.MedianLaw}), computed from
 * the samples in memory in the upload's transaction and stored beside the cells (table
 * {@code cell_median_window}, append-only), so that a comparison of two single runs reads
 * neither their samples nor anything computed after the upload. Runs stored before the
 * table (or restored from a backup) get theirs from a {@link BootstrapJobs} job; until
 * then a comparison computes the same window from the samples ({@link Medians}): the same
 * numbers.
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
	 * Computes and stores a run's windows from its cells (with their samples), in the
	 * caller's transaction: what a {@link BootstrapJobs} job does for a restored run or
	 * one stored before the windows were.
	 */
	@Transactional(propagation = Propagation.MANDATORY)
	public void store(RunId run, List<Cell> cells) {
		List<Row> rows = new ArrayList<>();
		for (Cell cell : cells) {
			rows.addAll(of(run, cell, computed));
		}
		try {
			insert(DataSourceUtils.getConnection(dataSource), run, rows);
		}
		catch (SQLException ex) {
			throw new IllegalStateException("cannot store the median windows of run " + run, ex);
		}
	}

	/** One cell × metric of one run. */
	public record Key(String runId, String anchor, String metric) {
	}

	/** Fewer samples of a metric than this never give a window. */
	static final int MIN_SAMPLES = 10;

	/**
	 * How a cell × metric's window is computed: by the statistics of comparisons
	 * ({@code compare.SampleMedians}), which this module does not depend on.
	 */
	@FunctionalInterface
	public interface Medians {

		/**
		 * The window of the cell's sorted samples of the metric; {@code null} when it has
		 * too few.
		 */
		@Nullable Window of(Cell cell, String metric);

	}

	/**
	 * The sorted samples of one cell × metric around their median: of {@code samples}
	 * values, those of 0-based ranks {@code first} … {@code first + values.length − 1}.
	 */
	public record Window(int samples, int first, double[] values) {
	}

	/** The stored windows of these runs, by run, anchor and metric. */
	public Map<Key, Window> find(Collection<RunId> runs) {
		Map<Key, Window> found = new HashMap<>();
		if (runs.isEmpty()) {
			return found;
		}
		String[] ids = runs.stream().map(RunId::value).toArray(String[]::new);
		new JdbcTemplate(dataSource).query(connection -> {
			PreparedStatement statement = connection.prepareStatement(
					"select run_id, anchor, metric, sample_count, first_rank, packed from cell_median_window where run_id = any(?)");
			// In PostgreSQL's binary format from the first execution (a threshold of -1
			// forces it): as text, a comparison
			// of two 400-cell runs spent most of its time turning 3 million numbers into
			// text and back.
			statement.unwrap(PGStatement.class).setPrepareThreshold(-1);
			statement.setArray(1, connection.createArrayOf("varchar", ids));
			return statement;
		}, (ResultSet rs) -> {
			Window window = new Window(rs.getInt("sample_count"), rs.getInt("first_rank"),
					PackedMedians.unpack(rs.getBytes("packed")));
			found.put(new Key(rs.getString("run_id"), rs.getString("anchor"), rs.getString("metric")), window);
		});
		return found;
	}

	/**
	 * The windows of every metric a cell's samples record (with enough samples).
	 */
	public static List<Row> of(RunId run, Cell cell, Medians computed) {
		Set<String> metrics = new LinkedHashSet<>();
		cell.samples().forEach(sample -> metrics.addAll(sample.metrics().keySet()));
		List<Row> rows = new ArrayList<>();
		for (String metric : metrics) {
			Window window = computed.of(cell, metric);
			if (window != null) {
				rows.add(new Row(cell.anchor(), metric, window));
			}
		}
		return rows;
	}

	/** A row to store. */
	public record Row(String anchor, String metric, Window window) {
	}

	/** Stores a run's rows on the connection of its upload (after its run row). */
	public static void insert(Connection connection, RunId run, List<Row> rows) throws SQLException {
		if (rows.isEmpty()) {
			return;
		}
		try (PreparedStatement insert = connection.prepareStatement(
				"insert into cell_median_window (run_id, anchor, metric, sample_count, first_rank, packed) values (?, ?, ?, ?, ?, ?)"
						+ " on conflict (run_id, anchor, metric) do nothing")) {
			for (Row row : rows) {
				insert.setString(1, run.value());
				insert.setString(2, row.anchor());
				insert.setString(3, row.metric());
				insert.setInt(4, row.window().samples());
				insert.setInt(5, row.window().first());
				insert.setBytes(6, PackedMedians.pack(row.window().values()));
				insert.addBatch();
			}
			insert.executeBatch();
		}
	}

}
