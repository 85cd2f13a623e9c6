package dev.parity.run;

import dev.parity.ParityTest;
import dev.parity.TestUploads;
import dev.parity.system.SchemaOwner;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The database itself refuses to change or remove a stored run, whatever code asks. */
@ParityTest
class AppendOnlyTests {

	@Autowired
	MockMvc mvc;

	@Autowired
	JdbcClient jdbc;

	/**
	 * The triggers hold even for the schema's owner (the application's role may not even
	 * try: DatabaseRolesTests).
	 */
	@Autowired
	SchemaOwner owner;

	String runId;

	@BeforeEach
	void storeARun() throws Exception {
		runId = TestUploads.upload(mvc, "run-e-control.json");
	}

	@ParameterizedTest
	@ValueSource(strings = { "update run set title = 'rewritten' where id = ?", "delete from run where id = ?",
			"update cell set metrics = '{}'::jsonb where run_id = ?", "delete from cell where run_id = ?",
			"update run_file set content = '\\x00'::bytea where run_id = ?", "delete from run_file where run_id = ?" })
	void refusesUpdateAndDelete(String statement) {
		TestUploads.RowCounts before = TestUploads.rows(jdbc);
		assertThatThrownBy(() -> JdbcClient.create(owner.dataSource()).sql(statement).param(runId).update()).rootCause()
			.hasMessageContaining("append-only");
		assertThat(TestUploads.rows(jdbc)).isEqualTo(before);
		assertThat(jdbc.sql("select title from run where id = ?").param(runId).query(String.class).single())
			.isEqualTo("Control run: pinned checkpoint, thinking off, warmed");
	}

	@ParameterizedTest
	@ValueSource(strings = { "run", "cell", "run_file" })
	void refusesTruncate(String table) {
		assertThatThrownBy(() -> JdbcClient.create(owner.dataSource()).sql("truncate " + table + " cascade").update())
			.rootCause()
			.hasMessageContaining("append-only");
	}

}
