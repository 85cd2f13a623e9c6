package dev.parity.reliability;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Random;

/**
 * A valid run document of a given size, made large the way real ones are: many cells with
 * every request as a sample (a long sweep with per-request records).
 */
final class LargeRunDocument {

	/** About this many bytes per sample. */
	private static final int SAMPLE_BYTES = 100;

	static final int CELLS = 240;

	private LargeRunDocument() {
	}

	/** A new document (its title says which) of at least {@code bytes} bytes. */
	static byte[] of(int bytes, String title) {
		Random random = new Random(title.hashCode());
		int samplesPerCell = Math.max(1, bytes / CELLS / SAMPLE_BYTES + 1);
		StringBuilder json = new StringBuilder(bytes + bytes / 10);
		json.append(
				"""
						{"format":"benchmark-run/1","title":"%s","role":"measured",
						 "system":{"name":"test rig","nodes":1},
						 "model":{"repo":"example-org/model","revision":"main","commit":"0123456789abcdef0123456789abcdef01234567"},
						 "engine":{"name":"vllm","version":"0.11.2"},
						 "harness":{"name":"test-harness"},
						 "workload":{"dataset":"random","output_tokens":512,"warmup_requests":8},
						 "cells":["""
					.formatted(title));
		for (int cell = 0; cell < CELLS; cell++) {
			if (cell > 0) {
				json.append(',');
			}
			json.append("{\"params\":{\"prompt_tokens\":")
				.append(256 << (cell % 8))
				.append(",\"concurrency\":")
				.append(1 + cell / 8)
				.append("},\"order\":")
				.append(cell + 1)
				.append(",\"requests\":{\"completed\":")
				.append(samplesPerCell)
				.append(",\"failed\":0,\"cancelled\":0},\"output_tokens\":{\"median\":512,\"min\":500,\"max\":530},")
				.append("\"metrics\":{\"ttft_s\":")
				.append(number(random, 0.1, 20))
				.append(",\"decode_tps\":")
				.append(number(random, 20, 90))
				.append("},\"samples\":[");
			for (int sample = 0; sample < samplesPerCell; sample++) {
				if (sample > 0) {
					json.append(',');
				}
				json.append("{\"status\":\"ok\",\"output_tokens\":")
					.append(500 + random.nextInt(30))
					.append(",\"ttft_s\":")
					.append(number(random, 0.1, 20))
					.append(",\"decode_tps\":")
					.append(number(random, 20, 90))
					.append(",\"e2e_latency_s\":")
					.append(number(random, 5, 60))
					.append('}');
			}
			json.append("]}");
		}
		json.append("]}");
		return json.toString().getBytes(StandardCharsets.UTF_8);
	}

	private static String number(Random random, double from, double to) {
		return String.format(Locale.ROOT, "%.6f", from + random.nextDouble() * (to - from));
	}

}
