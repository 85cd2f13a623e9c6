package dev.parity.history;

import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * A generated nightly series of 40 runs (four cells, three metrics, 1 % noise from a
 * fixed seed) with the events a history must tell apart: night 5 changes an ordinary flag
 * (an event), night 12 a critical one (kv-cache-dtype auto → fp8, a segment break, and a
 * level shift that must not alert), night 20 a failed cell, night 24 a lone outlier,
 * nights 26–27 one cell with longer outputs, and from night 30 a real regression (decode
 * −20 %, ttft +20 %).
 */
final class NightlyRuns {

	static final int NIGHTS = 40;

	static final int FLAG_CHANGE = 12;

	static final int FAILED_CELL = 20;

	static final int OUTLIER = 24;

	static final int LONGER_OUTPUTS = 26;

	static final int REGRESSION = 30;

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private NightlyRuns() {
	}

	/** The 40 documents of a series on {@code system}, night 0 first. */
	static List<ObjectNode> series(String system) {
		Random noise = new Random(20261201);
		List<ObjectNode> nights = new ArrayList<>();
		for (int night = 0; night < NIGHTS; night++) {
			nights.add(night(system, night, noise));
		}
		return nights;
	}

	private static ObjectNode night(String system, int night, Random noise) {
		ObjectNode doc = JSON.createObjectNode();
		doc.put("format", "benchmark-run/1");
		doc.put("title", "nightly " + system + " #" + night);
		doc.put("role", "measured");
		doc.put("recorded_at",
				LocalDate.of(2026, 1, 1).plusDays(night).atTime(2, 0).toInstant(ZoneOffset.UTC).toString());
		doc.putObject("system").put("name", system).put("hardware", "8x H100");
		doc.putObject("model")
			.put("repo", "org/model-7b")
			.put("revision", "main")
			.put("commit", "4f2a9c1e7b3d5a0f8c6e2d1b9a7f5e3c1d0b8a6f");
		ObjectNode engine = doc.putObject("engine");
		engine.put("name", "vllm").put("version", "0.11." + night).put("commit", commit(night));
		engine.putObject("flags")
			.put("kv-cache-dtype", night >= FLAG_CHANGE ? "fp8" : "auto")
			.put("max-num-seqs", night >= 5 ? "128" : "64");
		doc.putObject("harness").put("name", "vllm bench serve").put("version", "0.11");
		doc.putObject("workload").put("dataset", "random").put("output_tokens", 256).put("warmup_requests", 8);
		var cells = doc.putArray("cells");
		int order = 1;
		for (int prompt : new int[] { 1024, 4096 }) {
			for (int concurrency : new int[] { 1, 8 }) {
				double decode = 100.0 / (1 + concurrency / 8.0) * (night >= FLAG_CHANGE ? 1.15 : 1.0)
						* (night >= REGRESSION ? 0.8 : 1.0) * (1 + 0.01 * noise.nextGaussian());
				double ttft = prompt / 8000.0 * (night >= REGRESSION ? 1.2 : 1.0) * (1 + 0.01 * noise.nextGaussian());
				double outputTokens = 256;
				boolean failed = night == FAILED_CELL && prompt == 4096 && concurrency == 8;
				if (night == OUTLIER && prompt == 1024 && concurrency == 1) {
					ttft *= 1.8; // below the latency-spike factor (2×): a lone outlier no
									// rule greys
				}
				if ((night == LONGER_OUTPUTS || night == LONGER_OUTPUTS + 1) && prompt == 1024 && concurrency == 8) {
					outputTokens = 400;
					decode *= 1.3; // longer outputs flatter the per-request decode rate
				}
				if (failed) {
					decode = 12.0;
				}
				ObjectNode cell = cells.addObject();
				cell.putObject("params").put("prompt_tokens", prompt).put("concurrency", concurrency);
				cell.put("order", order++);
				cell.putObject("requests")
					.put("completed", failed ? 28 : 32)
					.put("failed", failed ? 4 : 0)
					.put("cancelled", 0);
				cell.putObject("output_tokens")
					.put("median", outputTokens)
					.put("min", outputTokens - 2)
					.put("max", outputTokens + 2)
					.put("mean", outputTokens);
				cell.putObject("metrics")
					.put("decode_tps", round(decode))
					.put("ttft_s", round(ttft))
					.put("throughput_tps", round(decode * concurrency));
			}
		}
		return doc;
	}

	static String commit(int night) {
		return String.format("%040x", 0xabc000L + night);
	}

	private static double round(double value) {
		return Math.round(value * 10000) / 10000.0;
	}

}
