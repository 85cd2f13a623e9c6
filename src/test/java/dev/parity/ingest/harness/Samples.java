package dev.parity.ingest.harness;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import dev.parity.Fixtures;

/**
 * The real harness outputs in {@code src/test/resources/given/samples/} (read as they
 * are) and this package's own cases in {@code src/test/resources/harness/}.
 */
final class Samples {

	private Samples() {
	}

	static Path sharedDirectory() {
		return Fixtures.given().resolve("samples");
	}

	/** A real sample by file name, named as uploaded (its bare file name). */
	static InputFile shared(String name) {
		return read(sharedDirectory().resolve(name), name);
	}

	/** Every real sample, except the README. */
	static List<String> sharedNames() {
		try (Stream<Path> files = Files.list(sharedDirectory())) {
			return files.map(path -> path.getFileName().toString())
				.filter(name -> !name.equals("README.md"))
				.sorted()
				.toList();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * One of this package's own cases ({@code harness/…} on the classpath), named by its
	 * path below its folder.
	 */
	static InputFile own(String path) {
		String resource = "/harness/" + path;
		try (InputStream in = Samples.class.getResourceAsStream(resource)) {
			if (in == null) {
				throw new IllegalArgumentException("no test resource " + resource);
			}
			return new InputFile(path.substring(path.indexOf('/') + 1), in.readAllBytes());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Every file below one of this package's own case folders, named by their paths
	 * inside it.
	 */
	static List<InputFile> ownFolder(String folder) {
		Path root;
		try {
			root = Path.of(Samples.class.getResource("/harness/" + folder).toURI());
		}
		catch (URISyntaxException ex) {
			throw new IllegalStateException(ex);
		}
		List<InputFile> files = new ArrayList<>();
		try (Stream<Path> walk = Files.walk(root)) {
			for (Path path : walk.filter(Files::isRegularFile).sorted().toList()) {
				files.add(read(path, root.relativize(path).toString().replace('\\', '/')));
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return files;
	}

	private static InputFile read(Path path, String name) {
		try {
			return new InputFile(name, Files.readAllBytes(path));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** The files zipped into one upload. */
	static InputFile zip(String name, List<InputFile> files) {
		var bytes = new ByteArrayOutputStream();
		try (var zip = new ZipOutputStream(bytes)) {
			for (InputFile file : files) {
				zip.putNextEntry(new ZipEntry(file.name()));
				zip.write(file.content());
				zip.closeEntry();
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return new InputFile(name, bytes.toByteArray());
	}

}
