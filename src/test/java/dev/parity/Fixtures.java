package dev.parity;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The given inputs, copied into the project's test resources
 * ({@code src/test/resources/given/}): the seed-story run documents and the real harness
 * samples, each folder with its README.
 */
public final class Fixtures {

	private Fixtures() {
	}

	/**
	 * The folder holding {@code seed-story/} and {@code samples/}, on the test class
	 * path.
	 */
	public static Path given() {
		try {
			return Path.of(Fixtures.class.getResource("/given").toURI());
		}
		catch (URISyntaxException | NullPointerException ex) {
			throw new IllegalStateException("the test resources folder given/ is missing from the class path", ex);
		}
	}

	public static Path sample(String name) {
		return given().resolve("samples").resolve(name);
	}

	public static Path seedStory(String name) {
		return given().resolve("seed-story").resolve(name);
	}

	public static byte[] seedStoryBytes(String name) {
		return read(seedStory(name));
	}

	/** Every run document of the seed story. */
	public static List<String> seedStoryNames() {
		try (Stream<Path> files = Files.list(given().resolve("seed-story"))) {
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
