package dev.parity.ingest.web;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.parity.web.ApiProblems;
import dev.parity.ingest.RunFileRejected;
import dev.parity.ingest.harness.InputFile;
import dev.parity.ingest.mapping.FormatNotYours;
import dev.parity.ingest.mapping.SavedFormat;
import dev.parity.ingest.mapping.SavedFormats;
import io.swagger.v3.oas.annotations.Operation;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.multipart.MultipartFile;
import org.springframework.web.multipart.MultipartHttpServletRequest;
import org.springframework.web.server.ResponseStatusException;

/**
 * Saved formats (field mappings for in-house JSON): {@code POST /api/formats} saves a
 * mapping as the next version of its name; {@code GET /api/formats} lists them (the
 * latest version of each), {@code GET /api/formats/{name}} one with its versions.
 */
@RestController
class FormatApiController {

	private final SavedFormats formats;

	FormatApiController(SavedFormats formats) {
		this.formats = formats;
	}

	@Operation(summary = "Save a format (a field mapping)",
			description = "Body: the mapping as JSON. 201 {name, version}"
					+ " for a new version, 200 with the latest version when the mapping is unchanged, 400 with every problem"
					+ " (nothing saved), 403 when the name is another user's format (only its maker or an admin adds versions).")
	@PostMapping(path = "/api/formats", consumes = MediaType.APPLICATION_JSON_VALUE)
	ResponseEntity<Map<String, Object>> saveJson(@RequestBody byte[] body, Authentication principal) {
		return saved(formats.save(utf8("mapping", body), null, principal.getName(), admin(principal)));
	}

	@Operation(summary = "Save a format with a sample file", description = "Multipart: `mapping` (JSON, as a field or a"
			+ " file) and an optional `sample` file, which the mapping must read (a mapping that reads nothing of it is"
			+ " refused). 201 {name, version}, 400 with every problem (nothing saved).")
	@PostMapping(path = "/api/formats", consumes = MediaType.MULTIPART_FORM_DATA_VALUE)
	ResponseEntity<Map<String, Object>> saveMultipart(MultipartHttpServletRequest request, Authentication principal) {
		ImportParts parts = new ImportParts(request);
		String mapping = parts.text("mapping");
		if (mapping == null) {
			throw new RunFileRejected("mapping", "missing: send the mapping as a part named mapping");
		}
		return saved(formats.save(mapping, sample(request), principal.getName(), admin(principal)));
	}

	@Operation(summary = "Saved formats", description = "The latest version of every saved format.")
	@GetMapping("/api/formats")
	Map<String, Object> list() {
		return Map.of("formats", formats.latest().stream().map(FormatApiController::describe).toList());
	}

	@Operation(summary = "A saved format",
			description = "`{name}` (the latest version, with the list of versions) or" + " `{name}@{version}`.")
	@GetMapping("/api/formats/{name}")
	Map<String, Object> one(@PathVariable String name) {
		SavedFormat format;
		try {
			format = formats.resolve(name).orElse(null);
		}
		catch (RunFileRejected rejected) {
			format = null;
		}
		if (format == null) {
			throw new ResponseStatusException(HttpStatus.NOT_FOUND, "no saved format " + name);
		}
		Map<String, Object> body = describe(format);
		body.put("versions", formats.versions(format.name()).stream().map(version -> {
			Map<String, Object> line = new LinkedHashMap<>();
			line.put("version", version.version());
			line.put("created_by", version.createdBy());
			line.put("created_at", version.createdAt().toString());
			return line;
		}).toList());
		return body;
	}

	/**
	 * A new version of another user's saved format: 403 naming the owner rule (choose
	 * another name); nothing saved.
	 */
	@ExceptionHandler(FormatNotYours.class)
	ResponseEntity<ProblemDetail> notYours(FormatNotYours notYours) {
		return ApiProblems.of(HttpStatus.FORBIDDEN, "name", String.valueOf(notYours.getMessage()));
	}

	/**
	 * Whether the signed-in user is an admin, who may add versions to anybody's format.
	 */
	static boolean admin(Authentication user) {
		return user.getAuthorities().stream().anyMatch(a -> "ROLE_ADMIN".equals(a.getAuthority()));
	}

	static @Nullable InputFile sample(MultipartHttpServletRequest request) {
		List<MultipartFile> samples = request.getFiles("sample");
		if (samples.size() > 1) {
			throw new RunFileRejected("sample", "sent more than once: send one sample file");
		}
		if (samples.isEmpty() || samples.get(0).isEmpty()) {
			return null;
		}
		try {
			MultipartFile sample = samples.get(0);
			return new InputFile(sample.getOriginalFilename() == null ? "sample.json" : sample.getOriginalFilename(),
					sample.getBytes());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static ResponseEntity<Map<String, Object>> saved(SavedFormats.Saved saved) {
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("name", saved.format().name());
		body.put("version", saved.format().version());
		URI location = URI.create("/api/formats/" + saved.format().id());
		return saved.created() ? ResponseEntity.created(location).body(body)
				: ResponseEntity.ok().location(location).body(body);
	}

	private static Map<String, Object> describe(SavedFormat format) {
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("name", format.name());
		body.put("version", format.version());
		body.put("id", format.id());
		body.put("created_by", format.createdBy());
		body.put("created_at", format.createdAt().toString());
		body.put("mapping", format.source());
		return body;
	}

	private static String utf8(String part, byte[] bytes) {
		try {
			return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes)).toString();
		}
		catch (CharacterCodingException ex) {
			throw new RunFileRejected(part, "not UTF-8 text: save it as UTF-8 and send it again");
		}
	}

}
