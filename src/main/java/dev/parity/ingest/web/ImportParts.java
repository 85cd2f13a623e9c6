package dev.parity.ingest.web;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.List;

import dev.parity.ingest.RunFileRejected;
import dev.parity.ingest.harness.InputFile;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.Part;
import org.jspecify.annotations.Nullable;

import org.springframework.util.StringUtils;
import org.springframework.web.multipart.MultipartFile;
import org.springframework.web.multipart.MultipartHttpServletRequest;

/**
 * The parts of a multipart import request as clients send them: each text part
 * ({@code provenance}, {@code mapping}, {@code format}) once, as a form field
 * ({@code curl -F provenance='{…}'}) or as a file
 * ({@code curl -F provenance=@provenance.json}), in UTF-8; the harness output as one or
 * more {@code files} parts. Any other shape is refused naming the part.
 */
final class ImportParts {

	private final MultipartHttpServletRequest request;

	ImportParts(MultipartHttpServletRequest request) {
		this.request = request;
	}

	/** The uploaded files ({@code files} parts with a file name; empty ones skipped). */
	List<InputFile> files() {
		String[] fields = request.getParameterValues("files");
		if (fields != null && fields.length > 0) {
			throw new RunFileRejected("files",
					"sent as a form field: send each file as a file part (curl -F files=@run.json)");
		}
		List<String> empty = ImportRequest.emptyFiles(request.getFiles("files"));
		if (!empty.isEmpty()) {
			throw new RunFileRejected("files", String.join(", ", empty) + (empty.size() == 1 ? " is" : " are")
					+ " empty (0 bytes): nothing to import");
		}
		return ImportRequest.files(request.getFiles("files"));
	}

	/**
	 * A text part's value, whether sent as a form field or as a file; {@code null} when
	 * not sent.
	 * @throws RunFileRejected naming the part when it is sent more than once or is not
	 * UTF-8 text
	 */
	@Nullable String text(String name) {
		String[] fields = request.getParameterValues(name);
		List<MultipartFile> files = request.getFiles(name);
		int count = (fields == null ? 0 : fields.length) + files.size();
		if (count == 0) {
			return null;
		}
		if (count > 1) {
			throw new RunFileRejected(name,
					"sent more than once (" + count + " parts named " + name + "): send it once");
		}
		byte[] bytes;
		if (!files.isEmpty()) {
			try {
				bytes = files.get(0).getBytes();
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}
		else {
			byte[] raw = rawField(name);
			if (raw == null) {
				return fields[0];
			}
			bytes = raw;
		}
		String text = utf8(name, bytes);
		return text.startsWith("\uFEFF") ? text.substring(1) : text;
	}

	/**
	 * The bytes of a form field as sent, where the container keeps them (the value it
	 * decoded has replaced bytes that are not UTF-8 with U+FFFD); {@code null} when it
	 * does not.
	 */
	private byte @Nullable [] rawField(String name) {
		Collection<Part> parts;
		try {
			parts = request.getParts();
		}
		catch (IOException | ServletException | RuntimeException ex) {
			return null;
		}
		for (Part part : parts) {
			if (part.getName().equals(name) && !StringUtils.hasLength(part.getSubmittedFileName())) {
				try {
					return part.getInputStream().readAllBytes();
				}
				catch (IOException ex) {
					throw new UncheckedIOException(ex);
				}
			}
		}
		return null;
	}

	private static String utf8(String name, byte[] bytes) {
		try {
			return StandardCharsets.UTF_8.newDecoder()
				.onMalformedInput(CodingErrorAction.REPORT)
				.onUnmappableCharacter(CodingErrorAction.REPORT)
				.decode(ByteBuffer.wrap(bytes))
				.toString();
		}
		catch (CharacterCodingException ex) {
			throw new RunFileRejected(name, "not UTF-8 text: save it as UTF-8 and send it again");
		}
	}

}
