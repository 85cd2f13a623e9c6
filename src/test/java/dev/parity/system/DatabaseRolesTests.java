package dev.parity.system;

import java.sql.DriverManager;
import java.util.List;

import dev.parity.ParityTest;
import dev.parity.TestUploads;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The application serves as a database role that can neither change a record nor get
 * around the triggers that keep it append-only, nor run programs on the database's
 * machine; the schema's owner migrates. Nobody connects to the embedded server without a
 * password.
 */
@ParityTest
class DatabaseRolesTests {

	/**
	 * The tables the record lives in (every table with an append-only trigger is checked
	 * as well).
	 */
	private static final List<String> APPEND_ONLY = List.of("run", "run_file", "cell", "caveat", "hypothesis_status",
			"publication", "retraction", "audit_event");

	@Autowired
	JdbcClient jdbc;

	@Autowired
	SchemaOwner owner;

	@Autowired
	MockMvc mvc;

	@Test
	void theApplicationIsNoSuperuserAndNotTheOwner() {
		assertThat(owner.separate()).isTrue();
		assertThat(jdbc.sql("select current_user").query(String.class).single()).isEqualTo(owner.applicationUser());
		assertThat(jdbc
			.sql("select rolsuper or rolcreaterole or rolcreatedb or rolbypassrls or rolreplication"
					+ " from pg_roles where rolname = current_user")
			.query(Boolean.class)
			.single()).isFalse();
		assertThat(jdbc
			.sql("select count(*) from pg_tables where schemaname = current_schema() and tableowner = current_user")
			.query(Long.class)
			.single()).isZero();
	}

	@Test
	void theApplicationMayOnlyReadAndInsertOnEveryAppendOnlyTable() {
		List<String> guarded = JdbcClient.create(owner.dataSource())
			.sql("""
					select distinct c.relname from pg_trigger t join pg_proc p on p.oid = t.tgfoid
					join pg_class c on c.oid = t.tgrelid
					where p.proname = 'parity_refuse_change' and c.relnamespace = current_schema()::regnamespace""")
			.query(String.class)
			.list();
		assertThat(guarded).containsAll(APPEND_ONLY);
		for (String table : guarded) {
			for (String privilege : List.of("SELECT", "INSERT")) {
				assertThat(privilege(table, privilege)).as("%s on %s", privilege, table).isTrue();
			}
			for (String privilege : List.of("UPDATE", "DELETE", "TRUNCATE", "TRIGGER", "REFERENCES")) {
				assertThat(privilege(table, privilege)).as("%s on %s", privilege, table).isFalse();
			}
		}
		// Tables outside the record stay writable: users, tokens. Flyway's history is
		// only read (backups name it).
		assertThat(privilege("app_user", "UPDATE")).isTrue();
		assertThat(privilege("api_token", "UPDATE")).isTrue();
		assertThat(privilege("flyway_schema_history", "SELECT")).isTrue();
		assertThat(privilege("flyway_schema_history", "INSERT")).isFalse();
	}

	@ParameterizedTest
	@ValueSource(strings = { "update run set title = 'rewritten'", "delete from run", "truncate run cascade",
			"update audit_event set detail = 'rewritten'", "delete from audit_event", "truncate audit_event",
			"update caveat set text = 'rewritten'", "delete from cell" })
	void theApplicationCannotChangeARecord(String statement) throws Exception {
		TestUploads.upload(mvc, TestUploads.fresh("run-e-control.json"));
		TestUploads.RowCounts before = TestUploads.rows(jdbc);
		assertThatThrownBy(() -> jdbc.sql(statement).update()).rootCause().hasMessageContaining("permission denied");
		assertThat(TestUploads.rows(jdbc)).isEqualTo(before);
	}

	@ParameterizedTest
	@ValueSource(strings = { "alter table run disable trigger run_append_only", "alter table run disable trigger all",
			"drop trigger run_append_only on run", "alter table audit_event disable trigger audit_event_append_only",
			"drop function parity_refuse_change() cascade",
			"create or replace function parity_refuse_change() returns trigger language plpgsql as $$ begin return new; end $$",
			"set session_replication_role = replica", "alter table run owner to current_user",
			"create table run_copy (id text)", "copy (select 1) to program 'id'", "copy run from program 'echo'",
			"select pg_read_file('postgresql.conf')", "create role intruder superuser",
			"alter role current_user superuser" })
	void theApplicationCannotGetAroundTheTriggersNorRunPrograms(String statement) {
		assertThatThrownBy(() -> jdbc.sql(statement).update()).rootCause()
			.hasMessageMatching("(?s).*(permission denied|must be (the )?owner|must be superuser|must have).*");
	}

	@Test
	void theEmbeddedServerAsksEveryoneForAPassword() {
		for (String user : List.of("postgres", owner.applicationUser())) {
			assertThatThrownBy(() -> DriverManager.getConnection(owner.url(), user, "").close()).as(user)
				.hasMessageContaining("password");
		}
	}

	private boolean privilege(String table, String privilege) {
		return jdbc.sql("select has_table_privilege(current_user, ?, ?)")
			.params(table, privilege)
			.query(Boolean.class)
			.single();
	}

}
