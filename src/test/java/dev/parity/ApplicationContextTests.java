package dev.parity;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import static org.assertj.core.api.Assertions.assertThat;

@ParityTest
class ApplicationContextTests {

	@Autowired
	JdbcClient jdbc;

	@Test
	void startsOnARealPostgreSqlWithTheSchemaMigrated() {
		assertThat(jdbc.sql("select version()").query(String.class).single()).startsWith("PostgreSQL 17");
		assertThat(jdbc.sql("select count(*) from flyway_schema_history where success").query(Integer.class).single())
			.isGreaterThanOrEqualTo(1);
	}

}
