package dev.parity.ingest.web;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.Principal;

import dev.parity.ingest.RunFileRejected;
import dev.parity.ingest.RunIngest;
import dev.parity.run.RunRepository.Stored;
import org.jspecify.annotations.Nullable;

import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.util.StringUtils;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.multipart.MultipartFile;

/**
 * The upload form: a run document as a file or pasted; on success the run page, on error the same
 * form with the input kept and every problem listed with its path.
 */
@Controller
class UploadController {

	/** Pasted text kept in the form after an error is capped, so a huge file does not come back into the page. */
	private static final int KEEP_AT_MOST = 2_000_000;

	private final RunIngest ingest;

	UploadController(RunIngest ingest) {
		this.ingest = ingest;
	}

	@GetMapping("/upload")
	String showUploadForm(Model model) {
		model.addAttribute("pageTitle", "Upload a run");
		model.addAttribute("document", "");
		return "ingest/upload";
	}

	@PostMapping("/upload")
	String uploadRun(@RequestParam(name = "file", required = false) @Nullable MultipartFile file,
			@RequestParam(name = "document", required = false) @Nullable String pasted, Principal principal,
			Model model) throws IOException {
		byte[] bytes;
		String fileName;
		if (file != null && !file.isEmpty()) {
			bytes = file.getBytes();
			fileName = StringUtils.hasText(file.getOriginalFilename()) ? file.getOriginalFilename() : "upload.json";
		}
		else {
			bytes = pasted == null ? new byte[0] : pasted.getBytes(StandardCharsets.UTF_8);
			fileName = "pasted.json";
		}
		try {
			Stored stored = ingest.ingestDocument(bytes, fileName, principal.getName());
			return "redirect:/runs/" + stored.id() + (stored.created() ? "" : "?existing");
		}
		catch (RunFileRejected rejected) {
			model.addAttribute("pageTitle", "Upload a run");
			model.addAttribute("problems", rejected.problems());
			model.addAttribute("fileName", fileName);
			String text = new String(bytes, StandardCharsets.UTF_8);
			model.addAttribute("document", text.length() > KEEP_AT_MOST ? "" : text);
			return "ingest/upload";
		}
	}

}
