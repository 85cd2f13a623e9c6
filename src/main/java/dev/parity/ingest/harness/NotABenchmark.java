package dev.parity.ingest.harness;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.core.exc.UnexpectedEndOfInputException;
import tools.jackson.core.json.JsonFactory;

/**
 * What a file no format reads is, when it is plainly not a benchmark's output: an image
 * or a PDF (by its first bytes), an empty file, JSON that ends before its value is
 * complete or breaks at some byte, or a binary file. The upload page says so instead of
 * offering to describe the file's format, and the import API names it in its 400.
 */
public final class NotABenchmark {

	/** How much of a file's start is looked at to call it binary. */
	private static final int SNIFF = 8192;

	private static final JsonFactory JSON = JsonFactory.builder().build();

	private NotABenchmark() {
	}

	/**
	 * One sentence per file that is plainly not a benchmark's output ("chart.png is a PNG
	 * image, …").
	 */
	public static List<String> of(List<InputFile> files) {
		List<String> found = new ArrayList<>();
		for (InputFile file : files) {
			describe(file).ifPresent(found::add);
		}
		return found;
	}

	/**
	 * What the file is, when it is plainly not a benchmark's output; empty for anything
	 * that might be one.
	 */
	public static Optional<String> describe(InputFile file) {
		byte[] bytes = file.content();
		String name = file.name();
		if (bytes.length == 0) {
			return Optional.of(name + " is empty (0 bytes)");
		}
		String kind = magic(bytes);
		if (kind != null) {
			return Optional.of(name + " is " + kind + ", not a benchmark's output");
		}
		int start = 0;
		if (bytes.length >= 3 && (bytes[0] & 0xff) == 0xEF && (bytes[1] & 0xff) == 0xBB && (bytes[2] & 0xff) == 0xBF) {
			start = 3;
		}
		while (start < bytes.length && isWhitespace(bytes[start])) {
			start++;
		}
		if (start == bytes.length) {
			return Optional.of(name + " holds only blank space (" + String.format("%,d", bytes.length) + " bytes)");
		}
		if (binary(bytes)) {
			return Optional.of(name + " is a binary file, not text: a benchmark's output is JSON, YAML, CSV or text");
		}
		if (bytes[start] == '{' || bytes[start] == '[') {
			return json(name, bytes);
		}
		return Optional.empty();
	}

	private static boolean isWhitespace(byte b) {
		return b == ' ' || b == '\n' || b == '\r' || b == '\t';
	}

	private static String magic(byte[] b) {
		if (starts(b, 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A)) {
			return "a PNG image";
		}
		if (starts(b, 0xFF, 0xD8, 0xFF)) {
			return "a JPEG image";
		}
		if (starts(b, 'G', 'I', 'F', '8', '7', 'a') || starts(b, 'G', 'I', 'F', '8', '9', 'a')) {
			return "a GIF image";
		}
		if (starts(b, '%', 'P', 'D', 'F', '-')) {
			return "a PDF document";
		}
		if (b.length >= 12 && starts(b, 'R', 'I', 'F', 'F') && b[8] == 'W' && b[9] == 'E' && b[10] == 'B'
				&& b[11] == 'P') {
			return "a WebP image";
		}
		if (starts(b, 0x1F, 0x8B)) {
			return "a gzip-compressed file (upload it uncompressed, or as a zip)";
		}
		return null;
	}

	private static boolean starts(byte[] bytes, int... prefix) {
		if (bytes.length < prefix.length) {
			return false;
		}
		for (int i = 0; i < prefix.length; i++) {
			if ((bytes[i] & 0xff) != prefix[i]) {
				return false;
			}
		}
		return true;
	}

	/**
	 * A NUL byte, or bytes that are not UTF-8, in the file's first 8 KB (a character cut
	 * at the 8 KB edge is fine).
	 */
	private static boolean binary(byte[] bytes) {
		int length = Math.min(bytes.length, SNIFF);
		for (int i = 0; i < length; i++) {
			if (bytes[i] == 0) {
				return true;
			}
		}
		try {
			StandardCharsets.UTF_8.newDecoder()
				.onMalformedInput(CodingErrorAction.REPORT)
				.onUnmappableCharacter(CodingErrorAction.REPORT)
				.decode(ByteBuffer.wrap(bytes, 0, length < bytes.length ? Math.max(0, length - 4) : length));
			return false;
		}
		catch (CharacterCodingException ex) {
			return true;
		}
	}

	/**
	 * JSON whose first value ends before it is complete, or breaks at some byte (counted
	 * from 1, as editors count columns). A complete first value followed by more (JSON
	 * Lines) is not for this class to judge.
	 */
	private static Optional<String> json(String name, byte[] bytes) {
		try (JsonParser parser = JSON.createParser(ObjectReadContext.empty(), bytes)) {
			JsonToken first = parser.nextToken();
			if (first != null) {
				parser.skipChildren();
			}
			return Optional.empty();
		}
		catch (UnexpectedEndOfInputException ex) {
			return Optional.of(name + " is JSON that ends at byte " + String.format("%,d", bytes.length)
					+ " before its value is complete: the file was cut off (a run that did not finish writing it, or an "
					+ "upload that stopped)");
		}
		catch (StreamConstraintsException ex) {
			return Optional.empty();
		}
		catch (JacksonException ex) {
			long at = ex.getLocation() == null ? -1 : ex.getLocation().getByteOffset();
			String what = ex.getOriginalMessage() == null ? "" : ex.getOriginalMessage().lines().findFirst().orElse("");
			return Optional
				.of(name + " is not valid JSON: it breaks at byte " + (at < 0 ? "?" : String.format("%,d", at + 1))
						+ " of " + String.format("%,d", bytes.length) + " (" + what + ")");
		}
	}

}
