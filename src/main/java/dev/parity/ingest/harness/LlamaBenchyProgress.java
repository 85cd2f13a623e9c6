package dev.parity.ingest.harness;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * llama-benchy's progress stream ({@code --emit-progress}, schema
 * {@code llama-benchy-progress.v1}): one JSON event per line. Each request has a
 * {@code request_start} (prompt size, response size, context depth, concurrency: the
 * cell), a {@code request_first_token} (TTFT, in s) and a {@code request_end} (tokens
 * generated, decode time, an error). Every request becomes a sample, so the counts are
 * the stream's own: a request that ended with an error, or without a single token,
 * failed; one that started and never ended (the stream stops before
 * {@code bench_complete}) was cut off, which counts as cancelled. Decode rate per request
 * is llama-benchy's: (tokens − 1) / decode time. Prefill rates are left out: llama-benchy
 * derives them from token counts the stream does not carry under prefix caching.
 */
final class LlamaBenchyProgress implements HarnessImporter {

	static final String SCHEMA = "llama-benchy-progress.v1";

	@Override
	public HarnessFormat format() {
		return HarnessFormat.LLAMA_BENCHY_PROGRESS;
	}

	static boolean isEvent(JsonNode node) {
		return node.isObject() && SCHEMA.equals(Fields.text(node, "schema")) && Fields.text(node, "type") != null;
	}

	@Override
	public FileRole role(ParsedFile file) {
		if (!file.looksLikeJson()) {
			// llama-benchy's own table of the same run travels with the stream; the
			// stream says more.
			return LlamaBenchyTable.table(file) != null ? FileRole.IGNORABLE : HarnessImporter.otherFile(file);
		}
		List<JsonNode> values = file.jsonValuesOrNull();
		if (values == null) {
			return FileRole.BROKEN;
		}
		return !values.isEmpty() && values.stream().allMatch(LlamaBenchyProgress::isEvent) ? FileRole.OWN
				: LlamaBenchy.isReport(values.get(0)) ? FileRole.IGNORABLE : FileRole.FOREIGN;
	}

	@Override
	public HarnessImport read(List<ParsedFile> files, @Nullable TableMapping mapping) {
		RunDraft run = new RunDraft();
		for (ParsedFile file : ownFiles(files, run)) {
			read(file, run);
		}
		return run.toImport();
	}

	private static void read(ParsedFile file, RunDraft run) {
		String source = file.name();
		run.state("harness.name", "llama-benchy", source);
		Map<Long, Request> requests = new LinkedHashMap<>();
		boolean complete = false;
		List<JsonNode> events = file.jsonValues();
		for (int i = 0; i < events.size(); i++) {
			JsonNode event = events.get(i);
			if (!isEvent(event)) {
				throw new ImportRejected(source + " line " + (i + 1) + ": not a " + SCHEMA + " event");
			}
			String type = Fields.text(event, "type");
			Double id = Fields.number(event, "request_id");
			switch (type) {
				case "header" -> {
					run.state("harness.version", Fields.text(event, "llama_benchy_version"), source);
					run.recordedAt(RecordedAt.ofEpochSeconds(Fields.number(event, "ts")));
				}
				case "request_start" -> {
					if (id != null) {
						requests.put(id.longValue(), new Request(event));
						ModelName.state(run, Fields.text(event, "model"), "model", source);
					}
				}
				case "request_first_token" -> {
					Request request = id == null ? null : requests.get(id.longValue());
					if (request != null) {
						request.ttft = Fields.number(event, "ttft_s");
					}
				}
				case "request_end" -> {
					Request request = id == null ? null : requests.get(id.longValue());
					if (request == null) {
						throw new ImportRejected(source + " line " + (i + 1) + ": request_end of request "
								+ event.path("request_id") + ", which never started");
					}
					request.end = event;
				}
				case "bench_complete" -> complete = true;
				default -> {
				}
			}
		}
		if (requests.isEmpty()) {
			throw new ImportRejected(source + ": no request_start event: the stream holds no request");
		}
		cells(new ArrayList<>(requests.values()), source, run);
		if (!complete) {
			run.note(source + ": the stream ends before bench_complete: the benchmark was cut off");
		}
	}

	private static void cells(List<Request> requests, String source, RunDraft run) {
		boolean contexts = requests.stream().anyMatch(request -> request.context > 0);
		Set<Double> outputs = new HashSet<>();
		requests.forEach(request -> outputs.add(request.response));
		Map<List<Double>, List<Request>> groups = new LinkedHashMap<>();
		for (Request request : requests) {
			groups
				.computeIfAbsent(List.of(request.prompt, request.response, request.context, request.concurrency),
						key -> new ArrayList<>())
				.add(request);
		}
		List<CellDraft> cells = new ArrayList<>();
		int cutOff = 0;
		int empty = 0;
		for (List<Request> group : groups.values()) {
			Request first = group.get(0);
			CellDraft cell = new CellDraft(source + " request " + first.id);
			cell.param("prompt_tokens", first.prompt);
			cell.param("concurrency", first.concurrency);
			if (contexts) {
				cell.param("context_tokens", first.context);
				cell.param("phase", "prompt");
			}
			if (outputs.size() > 1) {
				cell.param("output_tokens", first.response);
			}
			int completed = 0;
			int failed = 0;
			int cancelled = 0;
			List<Double> ttfts = new ArrayList<>();
			List<Double> decodes = new ArrayList<>();
			List<Double> tokens = new ArrayList<>();
			for (Request request : group) {
				SampleDraft sample = request.sample();
				cell.sample(sample);
				switch (sample.status()) {
					case SampleDraft.OK -> {
						completed++;
						add(ttfts, sample.metric("ttft_s"));
						add(decodes, sample.metric("decode_tps"));
						add(tokens, sample.outputTokens());
					}
					case SampleDraft.CANCELLED -> cancelled++;
					default -> failed++;
				}
				cutOff += request.end == null ? 1 : 0;
				empty += request.end != null && request.error() == null && !sample.status().equals(SampleDraft.OK) ? 1
						: 0;
			}
			cell.requests(completed, failed, cancelled);
			if (!ttfts.isEmpty()) {
				cell.metric("ttft_s", Distribution.of(ttfts).statistics());
			}
			if (!decodes.isEmpty()) {
				cell.metric("decode_tps", Distribution.of(decodes).statistics());
			}
			if (!tokens.isEmpty()) {
				cell.outputTokens(Distribution.of(tokens).tokens());
			}
			cells.add(cell);
		}
		if (outputs.size() == 1) {
			run.state("workload.output_tokens", outputs.iterator().next(), source);
		}
		if (cutOff > 0) {
			run.note(source + ": " + cutOff + " requests started and never ended (the stream was cut off): cancelled");
		}
		if (empty > 0) {
			run.note(source + ": " + empty + " requests ended without an error but without a single token: failed");
		}
		run.note(source + ": one sample per request, in the order they started; cell statistics from the completed"
				+ " requests; decode rate (tokens − 1) / decode time as llama-benchy computes it; prefill rates left out"
				+ " (the stream does not say how many prompt tokens were computed rather than cached)");
		ExecutionOrder.asListed(cells);
		cells.forEach(run::cell);
	}

	private static void add(List<Double> values, @Nullable Double value) {
		if (value != null) {
			values.add(value);
		}
	}

	/** One request, from its events. */
	private static final class Request {

		private final String id;

		private final double prompt;

		private final double response;

		private final double context;

		private final double concurrency;

		private @Nullable Double ttft;

		private @Nullable JsonNode end;

		Request(JsonNode start) {
			this.id = start.path("request_id").asString();
			this.prompt = orZero(Fields.number(start, "prompt_size"));
			this.response = orZero(Fields.number(start, "response_size"));
			this.context = orZero(Fields.number(start, "context_size"));
			Double level = Fields.number(start, "concurrency");
			this.concurrency = level == null ? 1 : level;
		}

		private static double orZero(@Nullable Double value) {
			return value == null ? 0 : value;
		}

		@Nullable String error() {
			return end == null ? null : Fields.text(end, "error");
		}

		SampleDraft sample() {
			if (end == null) {
				return new SampleDraft(SampleDraft.CANCELLED);
			}
			Double tokens = Fields.number(end, "total_tokens");
			boolean output = ttft != null || (tokens != null && tokens > 0);
			if (error() != null || !output) {
				return new SampleDraft(SampleDraft.FAILED);
			}
			SampleDraft sample = SampleDraft.ok().outputTokens(tokens).metric("ttft_s", ttft);
			Double decode = Fields.number(end, "decode_seconds");
			if (tokens != null && tokens > 1 && decode != null && decode > 0) {
				sample.metric("decode_tps", (tokens - 1) / decode);
			}
			return sample;
		}

	}

}
