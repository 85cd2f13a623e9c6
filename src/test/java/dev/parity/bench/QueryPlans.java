package dev.parity.bench;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The SQL the pages ran, as {@code pg_stat_statements} recorded it, and the plan
 * PostgreSQL chooses for each ({@code EXPLAIN (GENERIC_PLAN)}: the plan a prepared
 * statement gets, whatever its parameters).
 */
final class QueryPlans {

	/** Tables smaller than this may be read whole: an index would not help. */
	static final long SMALL_TABLE = 1000;

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private QueryPlans() {
	}

	/**
	 * One statement: its text, how often the pages ran it, the scans in its plan, and
	 * what reads a large table whole.
	 */
	record Planned(String query, long calls, double meanMillis, List<String> scans, List<String> fullScans) {
	}

	static void reset(Connection connection) throws SQLException {
		try (Statement statement = connection.createStatement()) {
			statement.execute("select pg_stat_statements_reset()");
		}
	}

	/**
	 * The statements that took the most time in the database since the last reset: each
	 * as "total ms, calls: text".
	 */
	static List<String> heaviest(Connection connection, int limit) throws SQLException {
		return statements(connection, "total_exec_time", limit);
	}

	/**
	 * The statements run most often since the last reset (each one's round trip costs
	 * both processes, however little it does): each as "total ms, calls: text".
	 */
	static List<String> mostCalled(Connection connection, int limit) throws SQLException {
		return statements(connection, "calls", limit);
	}

	private static List<String> statements(Connection connection, String order, int limit) throws SQLException {
		List<String> heaviest = new ArrayList<>();
		try (Statement statement = connection.createStatement(); ResultSet rs = statement.executeQuery("""
				select total_exec_time, calls, query from pg_stat_statements
				where dbid = (select oid from pg_database where datname = current_database())
				order by %s desc limit %d""".formatted(order, limit))) {
			while (rs.next()) {
				heaviest.add(String.format(Locale.ROOT, "%.0f ms, %d calls: %s", rs.getDouble(1), rs.getLong(2),
						rs.getString(3).replaceAll("\\s+", " ").strip()));
			}
		}
		return heaviest;
	}

	/** How many statements the database ran since the last reset. */
	static long calls(Connection connection) throws SQLException {
		try (Statement statement = connection.createStatement(); ResultSet rs = statement.executeQuery("""
				select coalesce(sum(calls), 0) from pg_stat_statements
				where dbid = (select oid from pg_database where datname = current_database())""")) {
			rs.next();
			return rs.getLong(1);
		}
	}

	static List<Planned> captured(Connection connection) throws SQLException {
		Map<String, Long> rows = new HashMap<>();
		try (Statement statement = connection.createStatement();
				ResultSet rs = statement
					.executeQuery("select relname, reltuples::bigint from pg_class where relkind = 'r'")) {
			while (rs.next()) {
				rows.put(rs.getString(1), rs.getLong(2));
			}
		}
		List<String[]> statements = new ArrayList<>();
		try (Statement statement = connection.createStatement(); ResultSet rs = statement.executeQuery("""
				select query, calls, mean_exec_time from pg_stat_statements
				where dbid = (select oid from pg_database where datname = current_database())
				order by total_exec_time desc""")) {
			while (rs.next()) {
				statements.add(new String[] { rs.getString(1), rs.getString(2), rs.getString(3) });
			}
		}
		List<Planned> result = new ArrayList<>();
		for (String[] row : statements) {
			String query = row[0].strip();
			String lower = query.toLowerCase(Locale.ROOT);
			if (!(lower.startsWith("select") || lower.startsWith("with")) || lower.contains("pg_stat_statements")
					|| lower.contains("pg_catalog") || lower.contains("pg_class") || lower.startsWith("select $1")
					|| lower.equals("select 1") || lower.startsWith("select version()")
					|| lower.contains("current_schema") || lower.contains("flyway_schema_history")) {
				continue;
			}
			List<String> scans = new ArrayList<>();
			List<String> full = new ArrayList<>();
			try (Statement statement = connection.createStatement();
					ResultSet rs = statement.executeQuery("explain (generic_plan, format json) " + query)) {
				rs.next();
				walk(JSON.readTree(rs.getString(1)).get(0).get("Plan"), rows, scans, full);
			}
			result.add(new Planned(query.replaceAll("\\s+", " "), Long.parseLong(row[1]), Double.parseDouble(row[2]),
					scans, full));
		}
		return result;
	}

	private static void walk(JsonNode plan, Map<String, Long> rows, List<String> scans, List<String> full) {
		String type = plan.path("Node Type").asString("");
		String relation = plan.path("Relation Name").asString("");
		String index = plan.path("Index Name").asString("");
		if (relation.isEmpty() && !index.isEmpty()) {
			scans.add(type + " using " + index);
		}
		if (!relation.isEmpty()) {
			scans.add(type + " on " + relation + (index.isEmpty() ? "" : " using " + index));
			if (type.equals("Seq Scan") && rows.getOrDefault(relation, 0L) >= SMALL_TABLE) {
				full.add(type + " on " + relation + " (" + rows.get(relation) + " rows)");
			}
		}
		for (JsonNode child : plan.path("Plans")) {
			walk(child, rows, scans, full);
		}
	}

}
