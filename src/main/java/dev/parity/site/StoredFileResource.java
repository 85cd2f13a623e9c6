package dev.parity.site;

import java.io.InputStream;

import dev.parity.run.Run.RunFile;
import dev.parity.run.RunId;
import dev.parity.run.StoredFiles;

import org.springframework.core.io.AbstractResource;

/**
 * An uploaded file as a response body: its length known without reading it, its bytes
 * streamed from PostgreSQL each time a stream is opened (Spring opens one per range of a
 * {@code Range} request and skips to its start).
 */
final class StoredFileResource extends AbstractResource {

	private final StoredFiles files;

	private final RunId run;

	private final RunFile file;

	StoredFileResource(StoredFiles files, RunId run, RunFile file) {
		this.files = files;
		this.run = run;
		this.file = file;
	}

	@Override
	public InputStream getInputStream() {
		return files.open(run, file);
	}

	@Override
	public boolean exists() {
		return true;
	}

	@Override
	public long contentLength() {
		return file.sizeBytes();
	}

	@Override
	public String getFilename() {
		return file.fileName();
	}

	@Override
	public String getDescription() {
		return "file " + file.position() + " of run " + run;
	}

	@Override
	public boolean equals(Object other) {
		return other instanceof StoredFileResource that && that.run.equals(run) && that.file.equals(file);
	}

	@Override
	public int hashCode() {
		return run.hashCode() * 31 + file.hashCode();
	}

}
