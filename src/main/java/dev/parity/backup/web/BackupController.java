package dev.parity.backup.web;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.Principal;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Map;

import dev.parity.backup.BackupContents;
import dev.parity.backup.BackupRejected;
import dev.parity.backup.Backups;
import dev.parity.backup.InstanceNotEmpty;
import dev.parity.backup.Restores;
import dev.parity.web.ApiProblems;
import io.swagger.v3.oas.annotations.Operation;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;

import org.springframework.http.ContentDisposition;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseBody;
import org.springframework.web.multipart.MultipartFile;

/**
 * Backup and restore for administrators: {@code GET /admin/backup} downloads the whole
 * record as one zip; {@code POST /admin/restore} (the form on {@code /admin/restore}) and
 * {@code POST /api/admin/restore} (for scripts: multipart field {@code archive}, or the
 * zip as an {@code application/zip} body, named by an optional
 * {@code Content-Disposition} header) restore one into an empty instance.
 */
@Controller
class BackupController {

	private final Backups backups;

	private final Restores restores;

	BackupController(Backups backups, Restores restores) {
		this.backups = backups;
		this.restores = restores;
	}

	@GetMapping("/admin/backup")
	void downloadBackup(HttpServletRequest request, HttpServletResponse response, Principal principal)
			throws IOException {
		requireAdmin(request);
		String name = "parity-backup-"
				+ DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").format(ZonedDateTime.now(ZoneOffset.UTC)) + ".zip";
		response.setContentType("application/zip");
		response.setHeader(HttpHeaders.CONTENT_DISPOSITION,
				ContentDisposition.attachment().filename(name).build().toString());
		BackupContents contents = backups.write(response.getOutputStream(), principal.getName());
		backups.recordExport(contents);
	}

	@GetMapping("/admin/restore")
	String showBackupPage(HttpServletRequest request, Model model) {
		requireAdmin(request);
		return page(model, null, null);
	}

	@PostMapping("/admin/restore")
	String restoreFromForm(@RequestParam("archive") MultipartFile archive, HttpServletRequest request,
			HttpServletResponse response, Model model) throws IOException {
		requireAdmin(request);
		try {
			BackupContents restored = restore(archive.getInputStream(), nameOf(archive));
			return page(model, "Restored " + restored + ".", null);
		}
		catch (BackupRejected rejected) {
			response.setStatus(HttpStatus.BAD_REQUEST.value());
			return page(model, null, rejected.getMessage());
		}
		catch (InstanceNotEmpty notEmpty) {
			response.setStatus(HttpStatus.CONFLICT.value());
			return page(model, null, notEmpty.getMessage());
		}
	}

	@Operation(summary = "Restore a backup into this empty instance (administrators)",
			description = "The zip that GET /admin/backup downloads, as multipart field 'archive' or as an application/zip"
					+ " body. 200 with what was restored; 400 when it is not a backup or is damaged; 409 when this instance"
					+ " is not empty. Nothing is stored unless all of it is.")
	@PostMapping(path = "/api/admin/restore", consumes = MediaType.MULTIPART_FORM_DATA_VALUE)
	@ResponseBody
	Map<String, Object> restoreMultipart(@RequestParam("archive") MultipartFile archive, HttpServletRequest request)
			throws IOException {
		requireAdmin(request);
		return Map.of("restored", restore(archive.getInputStream(), nameOf(archive)).counts());
	}

	@PostMapping(path = "/api/admin/restore", consumes = "application/zip")
	@ResponseBody
	Map<String, Object> restoreZip(HttpServletRequest request) throws IOException {
		requireAdmin(request);
		return Map.of("restored", restore(request.getInputStream(), nameOf(request)).counts());
	}

	/**
	 * An archive that cannot be restored: 400 naming why ({@code $}: the archive as a
	 * whole).
	 */
	@ExceptionHandler(BackupRejected.class)
	ResponseEntity<ProblemDetail> rejectArchive(BackupRejected rejected) {
		return ApiProblems.of(HttpStatus.BAD_REQUEST, "$", String.valueOf(rejected.getMessage()));
	}

	@ExceptionHandler(InstanceNotEmpty.class)
	ResponseEntity<ProblemDetail> refuseMerge(InstanceNotEmpty notEmpty) {
		return ApiProblems.of(HttpStatus.CONFLICT, "$", String.valueOf(notEmpty.getMessage()));
	}

	/**
	 * The archive is read from a temporary file: it may be larger than memory, and is
	 * checked before it is stored.
	 */
	private BackupContents restore(InputStream archive, String name) throws IOException {
		Path file = Files.createTempFile("parity-restore-", ".zip");
		try {
			try (archive) {
				Files.copy(archive, file, StandardCopyOption.REPLACE_EXISTING);
			}
			return restores.restore(file, name);
		}
		finally {
			Files.deleteIfExists(file);
		}
	}

	/**
	 * The file name of a zip sent as the body, from its {@code Content-Disposition}
	 * header if it has one.
	 */
	private static String nameOf(HttpServletRequest request) {
		String header = request.getHeader(HttpHeaders.CONTENT_DISPOSITION);
		try {
			String name = header == null ? null : ContentDisposition.parse(header).getFilename();
			return name == null || name.isBlank() ? "(request body)" : name;
		}
		catch (IllegalArgumentException ex) {
			return "(request body)";
		}
	}

	private static String nameOf(MultipartFile archive) {
		String name = archive.getOriginalFilename();
		return name == null || name.isBlank() ? "(unnamed upload)" : name;
	}

	private String page(Model model, @Nullable String done, @Nullable String problem) {
		model.addAttribute("pageTitle", "Backup and restore");
		model.addAttribute("contents", backups.contents());
		model.addAttribute("done", done);
		model.addAttribute("problem", problem);
		return "admin/backup";
	}

	/**
	 * The URL rules require an administrator already; this holds even if a rule is ever
	 * reordered.
	 */
	private static void requireAdmin(HttpServletRequest request) {
		if (!request.isUserInRole("ADMIN")) {
			throw new AccessDeniedException("backup and restore are for administrators");
		}
	}

}
