package dev.parity;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.datasource.DelegatingDataSource;

/**
 * The SQL statements a request makes, recorded by a wrapper around the application's
 * {@code DataSource}: on the request's thread (MockMvc runs a request on the test's
 * thread) and on the comparison's loading pool, never on background workers. For tests
 * that count or read them ({@code @Import(RecordedStatements.class)}).
 */
@TestConfiguration
public class RecordedStatements {

	/**
	 * A statement made.
	 *
	 * @param onRequestThread made on the request's own thread (else on the comparison's
	 * loading pool)
	 * @param sql its text as prepared; {@code null} for {@code createStatement}, which is
	 * given none
	 */
	public record Statement(boolean onRequestThread, @Nullable String sql) {
	}

	/** Something that makes a request. */
	public interface Request {

		void make() throws Exception;

	}

	private static final Queue<Statement> STATEMENTS = new ConcurrentLinkedQueue<>();

	private static volatile @Nullable Thread recorded;

	/** The statements made while {@code request} ran. */
	public static synchronized List<Statement> during(Request request) throws Exception {
		STATEMENTS.clear();
		recorded = Thread.currentThread();
		try {
			request.make();
		}
		finally {
			recorded = null;
		}
		return List.copyOf(STATEMENTS);
	}

	@Bean
	static BeanPostProcessor recordStatements() {
		return new BeanPostProcessor() {
			@Override
			public Object postProcessAfterInitialization(Object bean, String name) {
				if (!(bean instanceof DataSource dataSource) || !name.equals("dataSource")) {
					return bean;
				}
				return new DelegatingDataSource(dataSource) {
					@Override
					public Connection getConnection() throws SQLException {
						return recording(super.getConnection());
					}
				};
			}
		};
	}

	private static Connection recording(Connection connection) {
		return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(),
				new Class<?>[] { Connection.class }, (proxy, method, args) -> {
					String called = method.getName();
					if (called.equals("prepareStatement") || called.equals("createStatement")
							|| called.equals("prepareCall")) {
						Thread thread = Thread.currentThread();
						boolean onRequestThread = thread == recorded;
						if (recorded != null && (onRequestThread || thread.getName().startsWith("comparison-loader"))) {
							String sql = args != null && args.length > 0 && args[0] instanceof String text ? text
									: null;
							STATEMENTS.add(new Statement(onRequestThread, sql));
						}
					}
					try {
						return method.invoke(connection, args);
					}
					catch (InvocationTargetException ex) {
						throw ex.getCause();
					}
				});
	}

}
