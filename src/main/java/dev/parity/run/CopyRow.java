package dev.parity.run;

import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.Arrays;

import org.jspecify.annotations.Nullable;
import org.postgresql.copy.CopyIn;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Rows in PostgreSQL's {@code COPY} text format, built as UTF-8 bytes: columns separated
 * by tabs, rows by newlines, {@code \N} for null, and backslash, tab, newline and
 * carriage return escaped with a backslash.
 */
final class CopyRow {

	private byte[] bytes;

	private int size;

	CopyRow(int capacity) {
		this.bytes = new byte[capacity];
	}

	int size() {
		return size;
	}

	CopyRow tab() {
		return raw((byte) '\t');
	}

	CopyRow newline() {
		return raw((byte) '\n');
	}

	CopyRow number(@Nullable Integer value) {
		return value == null ? nullValue() : text(value.toString());
	}

	CopyRow text(@Nullable String value) {
		return value == null ? nullValue() : escaped(value.getBytes(StandardCharsets.UTF_8));
	}

	/** A JSON value as the mapper writes it, or null for an absent or JSON null value. */
	CopyRow json(JsonMapper json, @Nullable JsonNode value) {
		return value == null || value.isNull() ? nullValue() : escaped(json.writeValueAsBytes(value));
	}

	void flushTo(CopyIn copy) throws SQLException {
		if (size > 0) {
			copy.writeToCopy(bytes, 0, size);
			size = 0;
		}
	}

	private CopyRow nullValue() {
		ensure(2);
		bytes[size++] = '\\';
		bytes[size++] = 'N';
		return this;
	}

	private CopyRow raw(byte b) {
		ensure(1);
		bytes[size++] = b;
		return this;
	}

	/**
	 * UTF-8 never has these ASCII bytes inside a multi-byte character, so bytes can be
	 * escaped one by one.
	 */
	private CopyRow escaped(byte[] value) {
		ensure(value.length * 2);
		for (byte b : value) {
			switch (b) {
				case '\\' -> {
					bytes[size++] = '\\';
					bytes[size++] = '\\';
				}
				case '\t' -> {
					bytes[size++] = '\\';
					bytes[size++] = 't';
				}
				case '\n' -> {
					bytes[size++] = '\\';
					bytes[size++] = 'n';
				}
				case '\r' -> {
					bytes[size++] = '\\';
					bytes[size++] = 'r';
				}
				default -> bytes[size++] = b;
			}
		}
		return this;
	}

	private void ensure(int more) {
		if (size + more > bytes.length) {
			bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
		}
	}

}
