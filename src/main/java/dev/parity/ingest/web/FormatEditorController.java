package dev.parity.ingest.web;

import java.security.Principal;
import dev.parity.compare.ThresholdDefaults;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.parity.ingest.HarnessIngest;
import dev.parity.ingest.RunFileRejected;
import dev.parity.ingest.harness.InputFile;
import dev.parity.web.ApiProblems;
import dev.parity.ingest.mapping.FormatNotYours;
import dev.parity.ingest.mapping.SavedFormat;
import dev.parity.ingest.mapping.SavedFormats;
import dev.parity.run.MetricCatalogue;
import dev.parity.run.MetricDefinition;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.Authentication;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseBody;
import org.springframework.web.server.ResponseStatusException;

/**
 * "Describe this format", in the import flow: the held file's structure as a tree (drawn
 * in the browser), a mapping built by clicking, a live preview of the cells and flags it
 * reads, and saving it as a saved format — then the same preview and provenance form as
 * any import.
 */
@Controller
class FormatEditorController {

	private final PendingUploads pending;

	private final SavedFormats formats;

	private final HarnessIngest ingest;

	private final JsonMapper json;

	private final ThresholdDefaults thresholds;

	FormatEditorController(PendingUploads pending, SavedFormats formats, HarnessIngest ingest, JsonMapper json,
			ThresholdDefaults thresholds) {
		this.thresholds = thresholds;
		this.pending = pending;
		this.formats = formats;
		this.ingest = ingest;
		this.json = json;
	}

	@GetMapping("/upload/describe")
	String editor(@RequestParam String token, Principal principal, Model model) {
		InputFile file = sample(token, principal);
		model.addAttribute("pageTitle", "Describe this format");
		model.addAttribute("token", token);
		model.addAttribute("fileName", file.name());
		model.addAttribute("metrics",
				String.join(",", MetricCatalogue.defaults().all().stream().map(MetricDefinition::name).toList()));
		model.addAttribute("catalogueUnits",
				String.join(",",
						MetricCatalogue.defaults()
							.all()
							.stream()
							.map(definition -> definition.name() + "=" + definition.unit())
							.toList()));
		model.addAttribute("units",
				List.of("s", "ms", "us", "min", "tokens/s", "tokens/min", "requests/s", "requests/min"));
		return "ingest/describe";
	}

	/** The held file, for the tree. */
	@GetMapping(path = "/upload/describe/file", produces = MediaType.APPLICATION_JSON_VALUE)
	@ResponseBody
	byte[] file(@RequestParam String token, Principal principal) {
		return sample(token, principal).content();
	}

	/**
	 * What the mapping reads of the held files: problems (each naming its key), cells,
	 * flags and notes.
	 */
	@PostMapping(path = "/upload/describe/preview", produces = MediaType.APPLICATION_JSON_VALUE)
	@ResponseBody
	Map<String, Object> preview(@RequestParam String token, @RequestParam String mapping, Principal principal) {
		List<InputFile> files = held(token, principal);
		Map<String, Object> body = new LinkedHashMap<>();
		SavedFormat draft;
		try {
			draft = formats.check(mapping, null).draft(principal.getName());
		}
		catch (RunFileRejected rejected) {
			body.put("problems", rejected.problems());
			body.put("cells", List.of());
			body.put("flags", List.of());
			body.put("notes", List.of());
			return body;
		}
		HarnessIngest.Preview preview = ingest.preview(files, null, draft, placeholderProvenance(), null);
		body.put("problems", preview.problems());
		body.put("cells", preview.run() == null ? UploadController.previewCells(preview.document())
				: UploadController.previewCells(preview.run()));
		// The cells' flags: the run's own (unpinned, no warm-up) concern the provenance,
		// asked for after saving.
		body.put("flags",
				preview.run() == null ? List.of()
						: UploadController.flags(preview.run(), thresholds)
							.stream()
							.filter(flag -> !flag.contains("(run):"))
							.toList());
		body.put("notes", preview.notes());
		return body;
	}

	/**
	 * Saves the mapping (the held file is its sample: a mapping that reads nothing of it
	 * is refused).
	 */
	@PostMapping(path = "/upload/describe/save", produces = MediaType.APPLICATION_JSON_VALUE)
	@ResponseBody
	ResponseEntity<?> save(@RequestParam String token, @RequestParam String mapping, Authentication principal) {
		InputFile sample = sample(token, principal);
		try {
			SavedFormats.Saved saved = formats.save(mapping, sample, principal.getName(),
					FormatApiController.admin(principal));
			Map<String, Object> body = new LinkedHashMap<>();
			body.put("name", saved.format().name());
			body.put("version", saved.format().version());
			body.put("id", saved.format().id());
			return ResponseEntity.status(saved.created() ? HttpStatus.CREATED : HttpStatus.OK).body(body);
		}
		catch (RunFileRejected rejected) {
			return ApiProblems.of(HttpStatus.BAD_REQUEST, rejected.problems());
		}
		catch (FormatNotYours notYours) {
			return ApiProblems.of(HttpStatus.FORBIDDEN, "name", String.valueOf(notYours.getMessage()));
		}
	}

	/**
	 * Provenance the preview needs to be a valid document (the real one is asked for
	 * after saving).
	 */
	private ObjectNode placeholderProvenance() {
		ObjectNode provenance = json.createObjectNode();
		provenance.put("title", "format preview");
		provenance.putObject("system").put("name", "preview");
		provenance.putObject("model").put("repo", "preview/model");
		provenance.putObject("engine").put("name", "preview");
		return provenance;
	}

	private List<InputFile> held(String token, Principal principal) {
		return pending.files(principal.getName(), token)
			.orElseThrow(() -> new ResponseStatusException(HttpStatus.NOT_FOUND,
					"this upload is no longer held (it is kept 30 minutes): upload the file again"));
	}

	/** The first JSON file held: the one described. */
	private InputFile sample(String token, Principal principal) {
		return held(token, principal).stream()
			.filter(UploadController::looksLikeJson)
			.findFirst()
			.orElseThrow(() -> new ResponseStatusException(HttpStatus.BAD_REQUEST,
					"no JSON file in this upload: a saved format reads JSON"));
	}

}
