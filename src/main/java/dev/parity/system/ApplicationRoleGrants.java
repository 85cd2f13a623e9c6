package dev.parity.system;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.callback.BaseCallback;
import org.flywaydb.core.api.callback.Context;
import org.flywaydb.core.api.callback.Event;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * After every migration, as the schema's owner: gives the application's role exactly what
 * it needs on every table of the schema, whichever migration made it. A table with an
 * append-only trigger (one that calls {@code parity_refuse_change}) gets {@code SELECT}
 * and {@code INSERT} only; every other table {@code SELECT}, {@code INSERT},
 * {@code UPDATE} and {@code DELETE}; sequences {@code USAGE}, {@code SELECT} and
 * {@code UPDATE} (a restore sets them past the ids it brought); Flyway's history and
 * views {@code SELECT} (a backup names the schema version). Nothing else: no
 * {@code TRUNCATE}, no ownership, so the role can neither change a record nor alter,
 * disable or drop a trigger.
 */
class ApplicationRoleGrants extends BaseCallback {

	private static final Logger log = LoggerFactory.getLogger(ApplicationRoleGrants.class);

	/**
	 * The schema's tables and views: which the application only reads, and which an
	 * append-only trigger guards.
	 */
	private static final String TABLES = """
			select format('%I.%I', n.nspname, c.relname) as name,
			       c.relkind in ('v', 'm') or c.relname = ? as read_only,
			       exists (select 1 from pg_trigger t join pg_proc p on p.oid = t.tgfoid
			               where t.tgrelid = c.oid and p.proname = 'parity_refuse_change') as append_only
			from pg_class c join pg_namespace n on n.oid = c.relnamespace
			where n.nspname = current_schema() and c.relkind in ('r', 'p', 'v', 'm')
			order by c.relname""";

	private final SchemaOwner owner;

	ApplicationRoleGrants(SchemaOwner owner) {
		this.owner = owner;
	}

	@Override
	public boolean supports(Event event, Context context) {
		return event == Event.AFTER_MIGRATE && owner.separate();
	}

	@Override
	public void handle(Event event, Context context) {
		String role = quote(owner.applicationUser());
		Connection connection = context.getConnection();
		try {
			List<String> appendOnly = new ArrayList<>();
			try (Statement statement = connection.createStatement()) {
				warnIfPrivileged(connection);
				statement.execute("grant usage on schema " + currentSchema(connection) + " to " + role);
				for (Table table : tables(connection, context.getConfiguration().getTable())) {
					statement.execute("revoke all on " + table.name() + " from " + role);
					String privileges = "select, insert, update, delete";
					if (table.readOnly()) {
						privileges = "select";
					}
					else if (table.appendOnly()) {
						privileges = "select, insert";
						appendOnly.add(table.name());
					}
					statement.execute("grant " + privileges + " on " + table.name() + " to " + role);
				}
				statement.execute("grant usage, select, update on all sequences in schema " + currentSchema(connection)
						+ " to " + role);
			}
			log.info("The application serves as {}: select and insert only on the append-only tables {}",
					owner.applicationUser(), appendOnly);
		}
		catch (SQLException ex) {
			throw new FlywayException("Could not grant the application's role " + owner.applicationUser()
					+ " its privileges: " + ex.getMessage(), ex);
		}
	}

	private record Table(String name, boolean readOnly, boolean appendOnly) {
	}

	private static List<Table> tables(Connection connection, String historyTable) throws SQLException {
		List<Table> tables = new ArrayList<>();
		try (PreparedStatement query = connection.prepareStatement(TABLES)) {
			query.setString(1, historyTable);
			try (ResultSet rs = query.executeQuery()) {
				while (rs.next()) {
					tables
						.add(new Table(rs.getString("name"), rs.getBoolean("read_only"), rs.getBoolean("append_only")));
				}
			}
		}
		return tables;
	}

	private static String currentSchema(Connection connection) throws SQLException {
		try (Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery("select quote_ident(current_schema())")) {
			rs.next();
			return rs.getString(1);
		}
	}

	/**
	 * The whole point is lost when the application's role could do anything anyway: say
	 * so loudly.
	 */
	private void warnIfPrivileged(Connection connection) throws SQLException {
		try (PreparedStatement query = connection
			.prepareStatement("select rolsuper or rolbypassrls or rolcreaterole from pg_roles where rolname = ?")) {
			query.setString(1, owner.applicationUser());
			try (ResultSet rs = query.executeQuery()) {
				if (!rs.next()) {
					throw new SQLException("the role " + owner.applicationUser() + " does not exist");
				}
				if (rs.getBoolean(1)) {
					log.warn("The application's database role {} is a superuser or may create roles: it can bypass the"
							+ " append-only triggers. Give it none of these attributes (see README, Configuration).",
							owner.applicationUser());
				}
			}
		}
	}

	/** An SQL identifier in double quotes. */
	static String quote(String identifier) {
		return '"' + identifier.replace("\"", "\"\"") + '"';
	}

	@Override
	public String getCallbackName() {
		return "parity-application-role-grants";
	}

}
