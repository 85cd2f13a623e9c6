package dev.parity;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The given inputs in {@code ../shared/}: the seed-story run documents and the harness samples.
 */
public final class Fixtures {

	private Fixtures() {
	}

	public static Path shared() {
		return Path.of(System.getProperty("parity.shared", "../shared"));
	}

	public static Path seedStory(String name) {
		return shared().resolve("fixtures/seed-story").resolve(name);
	}

	public static byte[] seedStoryBytes(String name) {
		return read(seedStory(name));
	}

	/** Every run document of the seed story. */
	public static List<String> seedStoryNames() {
		try (Stream<Path> files = Files.list(shared().resolve("fixtures/seed-story"))) {
			return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".json")).sorted().toList();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	public static byte[] read(Path path) {
		try {
			return Files.readAllBytes(path);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
