package dev.parity.ingest.harness;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * One uploaded file (or one entry of an uploaded zip): its name, which may be a path
 * inside the zip, and its bytes.
 *
 * @param name the file name or entry path, must not be {@literal null}
 * @param content the bytes as uploaded, must not be {@literal null}
 */
public record InputFile(String name, byte[] content) {

	public InputFile {
		Objects.requireNonNull(name, "name must not be null");
		Objects.requireNonNull(content, "content must not be null");
	}

	public static InputFile of(String name, String text) {
		return new InputFile(name, text.getBytes(StandardCharsets.UTF_8));
	}

	/**
	 * The last segment of the name: {@code run=0.json} for
	 * {@code sweep/SERVE-…/run=0.json}.
	 */
	public String baseName() {
		int slash = Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\'));
		return name.substring(slash + 1);
	}

	/** The directory part of the name, empty for a bare file name. */
	public String directory() {
		int slash = Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\'));
		return slash < 0 ? "" : name.substring(0, slash);
	}

	@Override
	public boolean equals(Object other) {
		return other instanceof InputFile file && name.equals(file.name) && Arrays.equals(content, file.content);
	}

	@Override
	public int hashCode() {
		return 31 * name.hashCode() + Arrays.hashCode(content);
	}

	@Override
	public String toString() {
		return name + " (" + content.length + " bytes)";
	}

}
