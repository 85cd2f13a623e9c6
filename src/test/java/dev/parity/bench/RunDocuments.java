package dev.parity.bench;

import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Random;

/**
 * Generates {@code benchmark-run/1} documents of a given size: a grid of prompt lengths ×
 * concurrencies, every cell with a statistics object per metric and per-request samples,
 * written straight to a stream (so that a 100 MB document never has to be held as a tree
 * by the generator).
 */
final class RunDocuments {

	/**
	 * The checkpoint both sides of a benchmark comparison use, so that most cells are
	 * comparable.
	 */
	static final String COMMIT = "3f6c1a2b9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a";

	private RunDocuments() {
	}

	/**
	 * A document of {@code cells} cells, each with {@code samples} per-request samples,
	 * in memory.
	 */
	static byte[] document(String title, String system, int cells, int samples, long seed) {
		ByteArrayOutputStream out = new ByteArrayOutputStream(cells * samples * 70 + 4096);
		write(out, title, system, cells, samples, seed);
		return out.toByteArray();
	}

	/** The same, written to a file. */
	static long documentFile(Path file, String title, String system, int cells, int samples, long seed) {
		try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16)) {
			write(out, title, system, cells, samples, seed);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		try {
			return Files.size(file);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static void write(OutputStream stream, String title, String system, int cells, int samples, long seed) {
		Random random = new Random(seed);
		StringBuilder out = new StringBuilder(1 << 16);
		out.append("{\"format\":\"benchmark-run/1\",\"title\":\"")
			.append(title)
			.append("\",\"role\":\"measured\",")
			.append("\"recorded_at\":\"2026-11-01T10:00:00Z\",")
			.append("\"system\":{\"name\":\"")
			.append(system)
			.append("\",\"hardware\":\"8x accelerator\",\"nodes\":1},")
			.append("\"model\":{\"repo\":\"example-org/bench-70b\",\"revision\":\"main\",\"commit\":\"")
			.append(COMMIT)
			.append("\"},")
			.append("\"engine\":{\"name\":\"vllm\",\"version\":\"0.11.2\",\"flags\":{\"max-num-batched-tokens\":\"8192\"}},")
			.append("\"harness\":{\"name\":\"bench-harness\",\"version\":\"1.0\",\"command\":\"bench --grid\"},")
			.append("\"workload\":{\"dataset\":\"random\",\"output_tokens\":512,\"warmup_requests\":32},")
			.append("\"cells\":[");
		int side = (int) Math.ceil(Math.sqrt(cells));
		for (int i = 0; i < cells; i++) {
			int prompt = 128 * (1 + i / side);
			int concurrency = 1 + i % side;
			double ttft = 0.02 + prompt / 20000.0 * (1 + 0.05 * random.nextGaussian());
			double decode = 70 / Math.sqrt(concurrency) * (1 + 0.03 * random.nextGaussian());
			out.append(i == 0 ? "" : ",")
				.append("{\"params\":{\"prompt_tokens\":")
				.append(prompt)
				.append(",\"concurrency\":")
				.append(concurrency)
				.append("},\"order\":")
				.append(i + 1)
				.append(",\"requests\":{\"completed\":")
				.append(samples)
				.append(",\"failed\":0,\"cancelled\":0},")
				.append("\"output_tokens\":{\"median\":512,\"min\":490,\"max\":530,\"mean\":511.8},")
				.append("\"metrics\":{\"ttft_s\":{\"median\":")
				.append(num(ttft))
				.append(",\"mean\":")
				.append(num(ttft * 1.05))
				.append(",\"p99\":")
				.append(num(ttft * 1.6))
				.append("},\"prefill_tps\":")
				.append(num(prompt / ttft))
				.append(",\"decode_tps\":")
				.append(num(decode))
				.append(",\"throughput_tps\":")
				.append(num(decode * concurrency))
				.append(",\"tpot_ms\":")
				.append(num(1000 / decode))
				.append(",\"e2e_latency_s\":")
				.append(num(ttft + 512 / decode))
				.append("},\"samples\":[");
			for (int s = 0; s < samples; s++) {
				out.append(s == 0 ? "" : ",")
					.append("{\"status\":\"ok\",\"output_tokens\":")
					.append(500 + random.nextInt(25))
					.append(",\"ttft_s\":")
					.append(String.format(Locale.ROOT, "%.3f", ttft * (1 + 0.05 * random.nextGaussian())))
					.append(",\"decode_tps\":")
					.append(String.format(Locale.ROOT, "%.2f", decode * (1 + 0.03 * random.nextGaussian())))
					.append('}');
				if (out.length() > (1 << 16) - 256) {
					flush(out, stream);
				}
			}
			out.append("]}");
		}
		out.append("]}");
		flush(out, stream);
	}

	private static String num(double value) {
		return String.format(Locale.ROOT, "%.4f", value);
	}

	private static void flush(StringBuilder out, OutputStream stream) {
		try {
			stream.write(out.toString().getBytes(StandardCharsets.UTF_8));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		out.setLength(0);
	}

	static String randomCommit(Random random) {
		byte[] bytes = new byte[20];
		random.nextBytes(bytes);
		return HexFormat.of().formatHex(bytes);
	}

}
