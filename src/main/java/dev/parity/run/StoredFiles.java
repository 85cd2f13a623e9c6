package dev.parity.run;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.sql.PreparedStatement;
import java.util.Objects;
import java.util.Optional;

import org.postgresql.PGStatement;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/**
 * The uploaded files of runs, as downloads: what a file is (one small query, no cell and
 * no sample read), and its bytes as a stream read from PostgreSQL slice by slice.
 * <p>
 * Each slice is one query in PostgreSQL's binary format (the bytes as they are, not the
 * hex text pgjdbc asks for until a statement has run five times on a connection, which
 * doubles what travels and takes a decoding), and the connection goes back to the pool
 * before the slice is written: a slow client holds a thread and at most one slice in
 * memory, never a connection. A file of up to one slice (every run document of up to 16
 * MB) is one query; a larger one is read in slices, each of which PostgreSQL decompresses
 * from the start of the value, so a 100 MB file reads in about three times the time of
 * one query for it — the price of never holding it whole.
 */
@Repository
public class StoredFiles {

	/** The largest slice read at once: the memory one download holds. */
	static final int SLICE = 16 * 1024 * 1024;

	private final JdbcTemplate jdbc;

	private final int slice;

	@Autowired
	StoredFiles(JdbcTemplate jdbc) {
		this(jdbc, SLICE);
	}

	/** With slices of {@code slice} bytes (the tests' small slices). */
	StoredFiles(JdbcTemplate jdbc, int slice) {
		this.jdbc = jdbc;
		this.slice = slice;
	}

	/**
	 * The file at {@code position} of a run (0 is the document), without its bytes; empty
	 * when there is none.
	 */
	public Optional<Run.RunFile> find(RunId run, int position) {
		return jdbc
			.query("""
					select file_name, media_type, sha256, size_bytes from run_file where run_id = ? and position = ?""",
					(rs, n) -> new Run.RunFile(position, rs.getString("file_name"), rs.getString("media_type"),
							rs.getString("sha256"), rs.getLong("size_bytes")),
					run.value(), position)
			.stream()
			.findFirst();
	}

	/**
	 * Whether a run with this id is stored (to tell an unknown run from an unknown file
	 * of a known one).
	 */
	public boolean runExists(RunId run) {
		return Boolean.TRUE
			.equals(jdbc.queryForObject("select exists (select 1 from run where id = ?)", Boolean.class, run.value()));
	}

	/**
	 * The file's bytes, exactly as uploaded, read when the stream is read: nothing is
	 * fetched before the first read, and {@link InputStream#skip} moves past bytes
	 * without fetching them (a range request reads only its slice).
	 */
	public InputStream open(RunId run, Run.RunFile file) {
		return new Content(run, file);
	}

	/**
	 * Up to {@code length} bytes of the file from {@code offset} (0-based), as
	 * PostgreSQL's binary format gives them.
	 */
	private byte[] slice(RunId run, int position, long offset, long length, long size) {
		boolean whole = offset == 0 && length >= size;
		String sql = whole ? "select content from run_file where run_id = ? and position = ?"
				: "select substring(content from ? for ?) from run_file where run_id = ? and position = ?";
		byte[] bytes = jdbc.query(connection -> {
			PreparedStatement statement = connection.prepareStatement(sql);
			// Binary results from the first execution (a threshold of -1 forces them).
			statement.unwrap(PGStatement.class).setPrepareThreshold(-1);
			int index = 1;
			if (!whole) {
				statement.setInt(index++, Math.toIntExact(offset + 1));
				statement.setInt(index++, Math.toIntExact(length));
			}
			statement.setString(index++, run.value());
			statement.setInt(index, position);
			return statement;
		}, rs -> rs.next() ? rs.getBytes(1) : null);
		return Objects.requireNonNull(bytes, () -> "run " + run + " has no file " + position);
	}

	private static final byte[] NOTHING = new byte[0];

	/** A file's bytes, one slice in memory at a time. */
	private final class Content extends InputStream {

		private final RunId run;

		private final Run.RunFile file;

		/** Where in the file the next slice starts. */
		private long next;

		private byte[] current = NOTHING;

		private int at;

		Content(RunId run, Run.RunFile file) {
			this.run = run;
			this.file = file;
		}

		/**
		 * Whether there are bytes to give: fetches the next slice when the current one is
		 * used up.
		 */
		private boolean fill() {
			if (at < current.length) {
				return true;
			}
			if (next >= file.sizeBytes()) {
				return false;
			}
			current = NOTHING;
			current = slice(run, file.position(), next, Math.min(slice, file.sizeBytes() - next), file.sizeBytes());
			at = 0;
			next += current.length;
			if (current.length == 0) {
				throw new UncheckedIOException(new IOException("run " + run + " file " + file.position() + " ends at "
						+ next + " bytes, not at the " + file.sizeBytes() + " stored with it"));
			}
			return true;
		}

		@Override
		public int read() {
			return fill() ? current[at++] & 0xff : -1;
		}

		@Override
		public int read(byte[] into, int offset, int length) {
			Objects.checkFromIndexSize(offset, length, into.length);
			if (length == 0) {
				return 0;
			}
			if (!fill()) {
				return -1;
			}
			int count = Math.min(length, current.length - at);
			System.arraycopy(current, at, into, offset, count);
			at += count;
			return count;
		}

		@Override
		public long skip(long n) {
			if (n <= 0) {
				return 0;
			}
			long inSlice = Math.min(n, current.length - at);
			at += (int) inSlice;
			long beyond = Math.min(n - inSlice, file.sizeBytes() - next);
			next += beyond;
			return inSlice + beyond;
		}

		@Override
		public int available() {
			return current.length - at;
		}

		/** Writes each slice as it is, without copying it through a small buffer. */
		@Override
		public long transferTo(OutputStream out) throws IOException {
			long written = 0;
			try {
				while (fill()) {
					out.write(current, at, current.length - at);
					written += current.length - at;
					at = current.length;
				}
			}
			catch (UncheckedIOException ex) {
				throw ex.getCause();
			}
			return written;
		}

	}

}
