package dev.parity.run;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * Each run's per-cell sample statistics ({@link SampleSummary}), computed at ingest from
 * the samples in memory and stored beside the cells (tables {@code cell_statistics} and
 * {@code run_statistics}, append-only), so that a comparison reads them instead of the
 * samples. What depends on a threshold is keyed by the thresholds it was computed under
 * ({@link #computedUnder}); a comparison under others reads the samples.
 */
@Repository
public class CellStatistics {

	/**
	 * The name of the output tokens' row: never a metric's (a sample's output tokens are
	 * not a metric).
	 */
	static final String OUTPUT_TOKENS = "output_tokens";

	private final JdbcClient jdbc;

	private final DataSource dataSource;

	private final Summaries summaries;

	CellStatistics(JdbcClient jdbc, DataSource dataSource, Summaries summaries) {
		this.jdbc = jdbc;
		this.dataSource = dataSource;
		this.summaries = summaries;
	}

	/**
	 * How a cell's statistics are computed from its samples, under the server's default
	 * thresholds: by the statistics of the checks ({@code compare.SampleSummaries}),
	 * which this module does not depend on.
	 */
	public interface Summaries {

		/** The cell's statistics, its samples read. */
		SampleSummary of(Cell cell);

		/**
		 * The key of the thresholds they are computed under
		 * ({@link CellStatistics#computedUnder}).
		 */
		String computedUnder();

	}

	/**
	 * The key of statistics computed under these thresholds: the only threshold they
	 * depend on, the outlier z ({@code outlier_z=5}). Statistics computed under one key
	 * serve every setting with the same key.
	 */
	public static String computedUnder(double outlierZ) {
		return "outlier_z=" + BigDecimal.valueOf(outlierZ).stripTrailingZeros().toPlainString();
	}

	/**
	 * Computes and stores a run's statistics from its cells (with their samples), in the
	 * caller's transaction: for a run that reached the database another way than
	 * {@link RunWriter}, such as a restore.
	 */
	@Transactional(propagation = Propagation.MANDATORY)
	public void store(RunId run, List<Cell> cells) {
		List<Row> rows = new ArrayList<>();
		for (Cell cell : cells) {
			rows.add(of(cell));
		}
		try {
			insert(DataSourceUtils.getConnection(dataSource), run, summaries.computedUnder(), rows);
		}
		catch (SQLException ex) {
			throw new IllegalStateException("cannot store the statistics of run " + run, ex);
		}
	}

	/** A cell's statistics to store; none for a cell without samples. */
	Row of(Cell cell) {
		return new Row(cell.anchor(), cell.samples().isEmpty() ? null : summaries.of(cell));
	}

	/** The key of the statistics ingest stores now. */
	String computedUnder() {
		return summaries.computedUnder();
	}

	/** A cell's statistics; {@code null} for a cell without samples. */
	record Row(String anchor, @Nullable SampleSummary summary) {
	}

	/**
	 * Stores a run's statistics, one row per cell × metric, in one batch on the
	 * connection of its upload (after its run row), then the row that says they are
	 * complete.
	 */
	static void insert(Connection connection, RunId run, String computedUnder, List<Row> rows) throws SQLException {
		try (PreparedStatement insert = connection.prepareStatement(
				"""
						insert into cell_statistics (run_id, anchor, metric, computed_under, position, ok_position, sample_count, count,
						                             median, mean, sd, mad, min, max, worst_index, worst_value, worst_z, beyond)
						values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""")) {
			boolean any = false;
			for (Row row : rows) {
				SampleSummary summary = row.summary();
				if (summary == null) {
					continue;
				}
				List<SampleSummary.Values> all = new ArrayList<>(summary.metrics());
				if (summary.outputTokens() != null) {
					all.add(summary.outputTokens());
				}
				for (int i = 0; i < all.size(); i++) {
					SampleSummary.Values values = all.get(i);
					boolean tokens = values == summary.outputTokens();
					insert.setString(1, run.value());
					insert.setString(2, row.anchor());
					insert.setString(3, tokens ? OUTPUT_TOKENS : values.name());
					insert.setString(4, computedUnder);
					insert.setInt(5, tokens ? -1 : i);
					if (values.okPosition() < 0) {
						insert.setNull(6, Types.INTEGER);
					}
					else {
						insert.setInt(6, values.okPosition());
					}
					insert.setInt(7, summary.samples());
					insert.setInt(8, values.count());
					double[] numbers = { values.median(), values.mean(), values.sd(), values.mad(), values.min(),
							values.max() };
					for (int n = 0; n < numbers.length; n++) {
						setDouble(insert, 9 + n, numbers[n]);
					}
					insert.setInt(15, values.worstIndex());
					setDouble(insert, 16, values.worstValue());
					setDouble(insert, 17, values.worstZ());
					insert.setInt(18, values.beyond());
					insert.addBatch();
					any = true;
				}
			}
			if (any) {
				insert.executeBatch();
			}
		}
		try (PreparedStatement complete = connection
			.prepareStatement("insert into run_statistics (run_id, computed_under) values (?, ?)")) {
			complete.setString(1, run.value());
			complete.setString(2, computedUnder);
			complete.executeUpdate();
		}
	}

	/**
	 * Of these runs, those whose statistics under this key are complete and whose every
	 * cell × metric with enough completed samples for a median window has it stored
	 * ({@link CellBootstraps}): a comparison of them needs none of their samples.
	 */
	Set<RunId> complete(String[] runs, String computedUnder) {
		Set<RunId> complete = new HashSet<>();
		jdbc.sql("""
				select s.run_id from run_statistics s
				where s.run_id = any(?) and s.computed_under = ?
				  and (select count(*) from cell_statistics c
				       where c.run_id = s.run_id and c.computed_under = s.computed_under and c.metric <> ?
				         and c.count >= ?)
				    = (select count(*) from cell_median_window b where b.run_id = s.run_id)""")
			.params(runs, computedUnder, OUTPUT_TOKENS, CellBootstraps.MIN_SAMPLES)
			.query((ResultSet rs) -> {
				complete.add(new RunId(rs.getString(1)));
			});
		return complete;
	}

	/** The stored statistics of these runs under this key, by run and cell anchor. */
	Map<String, Map<String, SampleSummary>> find(String[] runs, String computedUnder) {
		final class Reading {

			int samples;

			final List<SampleSummary.Values> metrics = new ArrayList<>();

			SampleSummary.@Nullable Values tokens;

		}
		Map<String, Map<String, Reading>> read = new HashMap<>();
		jdbc.sql(
				"""
						select run_id, anchor, metric, position, ok_position, sample_count, count, median, mean, sd, mad, min, max,
						       worst_index, worst_value, worst_z, beyond
						from cell_statistics where run_id = any(?) and computed_under = ?
						order by run_id, anchor, position""")
			.params(runs, computedUnder)
			.query((ResultSet rs) -> {
				Reading cell = read.computeIfAbsent(rs.getString("run_id"), k -> new HashMap<>())
					.computeIfAbsent(rs.getString("anchor"), k -> new Reading());
				int okPosition = rs.getInt("ok_position");
				if (rs.wasNull()) {
					okPosition = -1;
				}
				SampleSummary.Values values = new SampleSummary.Values(rs.getString("metric"), okPosition,
						rs.getInt("count"), getDouble(rs, "median"), getDouble(rs, "mean"), getDouble(rs, "sd"),
						getDouble(rs, "mad"), getDouble(rs, "min"), getDouble(rs, "max"), rs.getInt("worst_index"),
						getDouble(rs, "worst_value"), getDouble(rs, "worst_z"), rs.getInt("beyond"));
				cell.samples = rs.getInt("sample_count");
				if (rs.getInt("position") < 0) {
					cell.tokens = values;
				}
				else {
					cell.metrics.add(values);
				}
			});
		Map<String, Map<String, SampleSummary>> found = new HashMap<>();
		read.forEach((run, cells) -> {
			Map<String, SampleSummary> byAnchor = new HashMap<>();
			cells.forEach((anchor, cell) -> byAnchor.put(anchor,
					new SampleSummary(cell.samples, cell.metrics, cell.tokens, computedUnder)));
			found.put(run, byAnchor);
		});
		return found;
	}

	/** The statistics of a cell without samples. */
	static SampleSummary none(String computedUnder) {
		return new SampleSummary(0, List.of(), null, computedUnder);
	}

	/** Of these runs, the ids. */
	static String[] ids(Collection<RunId> runs) {
		return runs.stream().map(RunId::value).distinct().toArray(String[]::new);
	}

	private static void setDouble(PreparedStatement statement, int index, double value) throws SQLException {
		if (Double.isNaN(value)) {
			statement.setNull(index, Types.DOUBLE);
		}
		else {
			statement.setDouble(index, value);
		}
	}

	private static double getDouble(ResultSet rs, String column) throws SQLException {
		double value = rs.getDouble(column);
		return rs.wasNull() ? Double.NaN : value;
	}

}
