package dev.parity.ingest.web;

import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.charset.StandardCharsets;
import java.security.Principal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.parity.compare.ThresholdDefaults;
import dev.parity.compare.Flag;
import dev.parity.compare.RunChecks;
import dev.parity.compare.RunFlags;
import dev.parity.ingest.DocumentLimits;
import dev.parity.ingest.HarnessIngest;
import dev.parity.ingest.IngestTurns;
import dev.parity.web.Problem;
import dev.parity.ingest.RunFileRejected;
import dev.parity.ingest.RunIngest;
import dev.parity.ingest.UploadTooLarge;
import dev.parity.ingest.UploadCounters;
import dev.parity.ingest.harness.HarnessFormat;
import dev.parity.ingest.harness.ImportRejected;
import dev.parity.ingest.harness.ImportTooLarge;
import dev.parity.ingest.harness.InputFile;
import dev.parity.ingest.harness.NotABenchmark;
import dev.parity.ingest.harness.TableColumns;
import dev.parity.ingest.harness.TableMapping;
import dev.parity.ingest.harness.UploadedFiles;
import dev.parity.ingest.mapping.SavedFormats;
import dev.parity.run.Cell;
import dev.parity.run.MetricCatalogue;
import dev.parity.run.Role;
import dev.parity.run.RunDocument;
import dev.parity.run.RunDocumentReader;
import dev.parity.run.RunWriter.Stored;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.util.StringUtils;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.multipart.MultipartFile;

/**
 * The upload form. A run document is stored at once (or comes back with every problem
 * listed by path); a harness's output is previewed first — what was understood, the flags
 * that will fire — with a form for the provenance the harness never recorded, and stored
 * when the uploader says so.
 */
@Controller
class UploadController {

	/**
	 * Pasted text kept in the form after an error is capped, so a huge file does not come
	 * back into the page.
	 */
	private static final int KEEP_AT_MOST = 2_000_000;

	private final RunIngest ingest;

	private final HarnessIngest harnessIngest;

	private final PendingUploads pending;

	private final JsonMapper json;

	private final SavedFormats savedFormats;

	private final UploadCounters counters;

	/**
	 * The thresholds every page flags runs with: the preview says what the run page will.
	 */
	private final ThresholdDefaults thresholds;

	/** What one upload may be read into (its JSON values, arrays, depth). */
	private final DocumentLimits limits;

	private final IngestTurns turns;

	UploadController(RunIngest ingest, HarnessIngest harnessIngest, PendingUploads pending, JsonMapper json,
			SavedFormats savedFormats, UploadCounters counters, ThresholdDefaults thresholds, DocumentLimits limits,
			IngestTurns turns) {
		this.turns = turns;
		this.limits = limits;
		this.thresholds = thresholds;
		this.savedFormats = savedFormats;
		this.counters = counters;
		this.ingest = ingest;
		this.harnessIngest = harnessIngest;
		this.pending = pending;
		this.json = json;
	}

	@GetMapping("/upload")
	String showUploadForm(Model model) {
		model.addAttribute("pageTitle", "Upload a run");
		model.addAttribute("document", "");
		model.addAttribute("formats", HarnessFormat.values());
		model.addAttribute("savedFormats", savedFormats.latest());
		return "ingest/upload";
	}

	@PostMapping("/upload")
	String uploadRun(@RequestParam(name = "file", required = false) @Nullable List<MultipartFile> parts,
			@RequestParam(name = "document", required = false) @Nullable String pasted,
			@RequestParam(name = "format", required = false) @Nullable String format, Principal principal, Model model,
			HttpServletResponse response) {
		List<InputFile> files = new ArrayList<>(ImportRequest.files(parts));
		if (StringUtils.hasText(pasted)) {
			files.add(new InputFile(pasted.stripLeading().startsWith("{") || pasted.stripLeading().startsWith("[")
					? "pasted.json" : "pasted.txt", pasted.getBytes(StandardCharsets.UTF_8)));
		}
		FormatPick pick;
		try {
			pick = FormatPick.of(format, savedFormats);
		}
		catch (RunFileRejected rejected) {
			return uploadForm(model, rejected.problems(), "the form", pasted);
		}
		List<String> empty = ImportRequest.emptyFiles(parts);
		if (files.isEmpty() && !empty.isEmpty()) {
			response.setStatus(HttpStatus.BAD_REQUEST.value());
			return uploadForm(model, List.of(new Problem("files", String.join(", ", empty)
					+ (empty.size() == 1 ? " is" : " are") + " empty (0 bytes): choose another file")), "the form",
					pasted);
		}
		if (files.isEmpty()) {
			return uploadForm(model, List.of(new Problem("$", "choose a file or paste a run document")), "the form",
					pasted);
		}
		UploadedFiles expanded;
		try {
			// Once per request: detection and the preview read the same entries.
			expanded = UploadedFiles.expand(files, limits.jsonLimits());
		}
		catch (ImportRejected rejected) {
			response.setStatus(HttpStatus.BAD_REQUEST.value());
			return uploadForm(model, List.of(new Problem("files", rejected.getMessage())), "the form", null);
		}
		HarnessFormat picked = pick.builtIn();
		boolean nativeDocument;
		try {
			nativeDocument = picked == HarnessFormat.NATIVE
					|| (picked == null && pick.saved() == null && files.size() == 1
							&& expanded.detection().format() == HarnessFormat.NATIVE)
					|| (picked == null && pick.saved() == null && files.size() == 1 && looksLikeJsonObject(files.get(0))
							&& !expanded.detection().certain());
		}
		catch (ImportTooLarge tooLarge) {
			return tooLarge(model, response, tooLarge.getMessage());
		}
		if (nativeDocument && files.size() == 1) {
			InputFile file = files.get(0);
			try {
				Stored stored = turns
					.inTurn(() -> ingest.ingestDocument(file.content(), file.name(), principal.getName()));
				return "redirect:/runs/" + stored.id() + (stored.created() ? "" : "?existing");
			}
			catch (UploadTooLarge tooLarge) {
				response.setStatus(HttpStatus.CONTENT_TOO_LARGE.value());
				return uploadForm(model, tooLarge.problems(), file.name(), null);
			}
			catch (RunFileRejected rejected) {
				String text = new String(file.content(), StandardCharsets.UTF_8);
				return uploadForm(model, rejected.problems(), file.name(), text.length() > KEEP_AT_MOST ? "" : text);
			}
		}
		String token;
		try {
			token = pending.hold(principal.getName(), files);
		}
		catch (PendingUploads.TooLarge tooLarge) {
			counters.refused("import", "too-large");
			response.setStatus(HttpStatus.CONTENT_TOO_LARGE.value());
			return uploadForm(model, List.of(new Problem("files", tooLarge.getMessage())), "the form", null);
		}
		try {
			return importPage(model, token, files, expanded, pick, ProvenanceForm.empty(), null, false, null);
		}
		catch (UploadTooLarge tooLarge) {
			pending.release(token);
			return tooLarge(model, response, tooLarge.getMessage());
		}
	}

	/**
	 * The form again with a 413 naming the limit an upload went beyond; nothing of it is
	 * kept.
	 */
	private String tooLarge(Model model, HttpServletResponse response, String message) {
		counters.refused("import", "too-large");
		response.setStatus(HttpStatus.CONTENT_TOO_LARGE.value());
		return uploadForm(model, List.of(new Problem("files", message)), "the form", null);
	}

	@PostMapping("/upload/import")
	String importRun(@RequestParam String token, @RequestParam(required = false) @Nullable String format,
			@RequestParam(defaultValue = "preview") String action, @ModelAttribute ProvenanceForm form,
			Principal principal, @RequestParam(required = false) @Nullable String offeredCaveat,
			@RequestParam(defaultValue = "false") boolean edited,
			@RequestParam(required = false) @Nullable String saved, Model model, HttpServletResponse response) {
		List<InputFile> files = pending.files(principal.getName(), token).orElse(null);
		if (files == null) {
			return uploadForm(model, List.of(new Problem("files",
					"this upload is no longer held (it is kept 30 minutes for the preview): upload the files again")),
					"the form", "");
		}
		FormatPick pick = FormatPick.of(format, savedFormats);
		if ("store".equals(action)) {
			try {
				TableMapping mapping = form.mapping();
				Stored stored = turns.inTurn(() -> harnessIngest.store(files, pick.builtIn(), pick.saved(),
						form.toJson(json), mapping, principal.getName()));
				pending.release(token);
				return "redirect:/runs/" + stored.id() + (stored.created() ? "" : "?existing");
			}
			catch (UploadTooLarge tooLarge) {
				pending.release(token);
				response.setStatus(HttpStatus.CONTENT_TOO_LARGE.value());
				return uploadForm(model, tooLarge.problems(), "the form", null);
			}
			catch (RunFileRejected | IllegalArgumentException rejected) {
				// shown below with the preview
			}
		}
		try {
			return importPage(model, token, files, null, pick, form, offeredCaveat,
					edited || "store".equals(action) || form.anyTyped(),
					"created".equals(saved) || "unchanged".equals(saved) ? saved : null);
		}
		catch (UploadTooLarge tooLarge) {
			pending.release(token);
			return tooLarge(model, response, tooLarge.getMessage());
		}
	}

	/**
	 * The preview page; {@code expanded} is the files with their zips expanded, when this
	 * request did already. Until the uploader has acted on the provenance form
	 * ({@code edited}), what it still lacks is said calmly, as what to fill in, never as
	 * errors; a field the importer filled is never asked for.
	 * @param savedNow {@code created} or {@code unchanged} right after the format editor
	 * saved the format that reads the files
	 */
	private String importPage(Model model, String token, List<InputFile> files, @Nullable UploadedFiles expanded,
			FormatPick pick, ProvenanceForm form, @Nullable String offeredBefore, boolean edited,
			@Nullable String savedNow) {
		HarnessFormat picked = pick.builtIn();
		List<Problem> formProblems = new ArrayList<>();
		TableMapping mapping = null;
		ObjectNode provenance;
		try {
			mapping = form.mapping();
			provenance = form.toJson(json);
		}
		catch (IllegalArgumentException ex) {
			formProblems.add(new Problem("form", ex.getMessage()));
			provenance = json.createObjectNode();
		}
		HarnessIngest.Preview preview = expanded == null
				? harnessIngest.preview(files, picked, pick.saved(), provenance, mapping)
				: harnessIngest.preview(expanded, picked, pick.saved(), provenance, mapping);
		ProvenanceForm filled = form.withEngineOf(preview.format());
		if (filled != form && formProblems.isEmpty()) {
			// The importer names the engine (vllm, sglang): the preview is read with it,
			// so it is not asked for.
			form = filled;
			provenance = form.toJson(json);
			preview = expanded == null ? harnessIngest.preview(files, picked, pick.saved(), provenance, mapping)
					: harnessIngest.preview(expanded, picked, pick.saved(), provenance, mapping);
		}
		List<Problem> problems = new ArrayList<>(formProblems);
		problems.addAll(preview.problems());
		List<String> stillNeeded = new ArrayList<>();
		if (!edited) {
			// The first view: what the provenance form still needs is a list of fields to
			// fill in, not errors.
			List<Problem> provenanceProblems = problems.stream()
				.filter(problem -> !ProvenanceForm.fieldErrors(List.of(problem)).isEmpty())
				.toList();
			problems.removeAll(provenanceProblems);
			ProvenanceForm.fieldErrors(provenanceProblems)
				.keySet()
				.forEach(field -> stillNeeded.add(ProvenanceForm.label(field)));
		}
		model.addAttribute("stillNeeded", stillNeeded);
		model.addAttribute("savedNow", savedNow == null ? "" : savedNow);
		List<String> notABenchmark = preview.formatId() == null && preview.detection().candidates().isEmpty()
				? NotABenchmark.of(files) : List.of();
		model.addAttribute("notABenchmark", notABenchmark);
		if (!notABenchmark.isEmpty()) {
			// Said once, in the card that names what the file is.
			problems.removeIf(problem -> "files".equals(problem.path()));
		}
		model.addAttribute("pageTitle", "Import a run");
		model.addAttribute("token", token);
		model.addAttribute("files",
				files.stream()
					.map(f -> f.name() + " (" + String.format("%,d", f.content().length) + " bytes)")
					.toList());
		model.addAttribute("preview", preview);
		model.addAttribute("problems", problems);
		model.addAttribute("storable", preview.storable() && formProblems.isEmpty());
		boolean isTable = preview.format() != null && preview.format().needsMapping()
				|| picked != null && picked.needsMapping();
		// The text under a published table ("128K × c=4 did not finish …") is offered
		// once as a caveat of the run: put in
		// the caveats field, where the uploader keeps it (stored with the run) or deletes
		// it.
		String offered = isTable ? TableColumns.offeredCaveat(files, mapping) : "";
		if (!offered.isEmpty() && !offered.equals(offeredBefore)
				&& (form.caveats() == null || !form.caveats().contains(offered))) {
			form = form.withCaveats(form.caveats() == null || form.caveats().isBlank() ? offered
					: form.caveats().stripTrailing() + "\n" + offered);
		}
		model.addAttribute("offeredCaveat", offered.isEmpty() ? (offeredBefore == null ? "" : offeredBefore) : offered);
		model.addAttribute("form",
				ProvenanceForm.prefill(preview.fileProvenance(), form).withEngineOf(preview.format()));
		model.addAttribute("formats", HarnessFormat.values());
		model.addAttribute("chosenFormat", preview.formatId() == null ? "" : preview.formatId());
		model.addAttribute("savedFormats", savedFormats.latest());
		// A file no format reads (nothing built in, no saved format): offer to describe
		// its format.
		model.addAttribute("describable", preview.formatId() == null && preview.detection().candidates().isEmpty()
				&& notABenchmark.isEmpty() && files.stream().anyMatch(UploadController::looksLikeJson));
		model.addAttribute("isTable", isTable);
		model.addAttribute("tableColumns", isTable ? TableColumns.of(files) : List.of());
		model.addAttribute("tables", isTable ? TableColumns.tables(files) : List.of());
		model.addAttribute("fieldErrors", ProvenanceForm.fieldErrors(problems));
		model.addAttribute("cells",
				preview.run() == null ? previewCells(preview.document()) : previewCells(preview.run()));
		model.addAttribute("flags", preview.run() == null ? List.of() : flags(preview.run(), thresholds));
		return "ingest/import";
	}

	/**
	 * One line per cell of the preview: params, counts, output tokens and metric values
	 * with units.
	 */
	record PreviewCell(String params, String completed, String failed, String cancelled, String outputTokens,
			Map<String, String> metrics, int samples) {
	}

	static List<PreviewCell> previewCells(RunDocument run) {
		MetricCatalogue catalogue = run.provenance().catalogue();
		List<PreviewCell> cells = new ArrayList<>();
		for (Cell cell : run.cells()) {
			Map<String, String> metrics = new LinkedHashMap<>();
			cell.metrics().forEach((name, value) -> {
				StringBuilder text = new StringBuilder();
				value.statistics()
					.forEach((stat, number) -> text.append(text.isEmpty() ? "" : ", ")
						.append(value.single() ? "" : stat + " ")
						.append(format(number)));
				metrics.put(name + " (" + catalogue.get(name).unit() + ")", text.toString());
			});
			cells.add(new PreviewCell(cell.params().label(), count(cell.requests().completed()),
					count(cell.requests().failed()), count(cell.requests().cancelled()),
					cell.medianOutputTokens().map(UploadController::format).orElse("not measured"), metrics,
					cell.samples().size()));
		}
		return cells;
	}

	static List<PreviewCell> previewCells(@Nullable ObjectNode document) {
		if (document == null || !document.path("cells").isArray()) {
			return List.of();
		}
		try {
			return previewCells(new RunDocument("preview", Role.MEASURED, null, RunDocumentReader.provenance(document),
					RunDocumentReader.cells(document.get("cells"))));
		}
		catch (RuntimeException ex) {
			return List.of();
		}
	}

	/**
	 * The run checks that will fire under the configured thresholds, with their counts:
	 * "setting-not-obeyed on 20 cells".
	 */
	static List<String> flags(RunDocument run, ThresholdDefaults thresholds) {
		RunFlags flags = RunChecks.check(run, thresholds.settings());
		List<String> lines = new ArrayList<>();
		for (Flag flag : flags.run()) {
			lines.add(flag.rule() + " (run): " + flag.message());
		}
		Map<String, Set<String>> cellsPerRule = new LinkedHashMap<>();
		Map<String, String> example = new LinkedHashMap<>();
		flags.cells().forEach((anchor, list) -> list.forEach(flag -> {
			cellsPerRule.computeIfAbsent(flag.rule(), k -> new HashSet<>()).add(anchor);
			example.putIfAbsent(flag.rule(), flag.message());
		}));
		cellsPerRule.forEach((rule, anchors) -> lines.add(rule + " on " + anchors.size()
				+ (anchors.size() == 1 ? " cell" : " cells") + ", e.g. " + example.get(rule)));
		return lines;
	}

	private String uploadForm(Model model, List<Problem> problems, String fileName, @Nullable String text) {
		model.addAttribute("pageTitle", "Upload a run");
		model.addAttribute("problems", problems);
		model.addAttribute("fileName", fileName);
		model.addAttribute("document", text == null ? "" : text);
		model.addAttribute("formats", HarnessFormat.values());
		model.addAttribute("savedFormats", savedFormats.latest());
		return "ingest/upload";
	}

	static boolean looksLikeJson(InputFile file) {
		String start = new String(file.content(), 0, Math.min(file.content().length, 64), StandardCharsets.UTF_8)
			.stripLeading();
		return start.startsWith("{") || start.startsWith("[") || start.startsWith("\uFEFF{");
	}

	private static boolean looksLikeJsonObject(InputFile file) {
		String start = new String(file.content(), 0, Math.min(file.content().length, 64), StandardCharsets.UTF_8)
			.stripLeading();
		return start.startsWith("{") && new String(file.content(), StandardCharsets.UTF_8).contains("\"format\"");
	}

	private static String count(@Nullable Integer count) {
		return count == null ? "unknown" : String.valueOf(count);
	}

	private static String format(double value) {
		return new BigDecimal(value).round(new MathContext(5)).stripTrailingZeros().toPlainString();
	}

}
