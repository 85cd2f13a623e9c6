package dev.parity.run;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.hibernate.annotations.Immutable;
import org.jspecify.annotations.Nullable;

/**
 * A run as listed: its id and the provenance columns people filter on. Read-only.
 */
@Entity
@Immutable
@Table(name = "run")
public class RunSummary {

	@Id
	private String id;

	private String title;

	private String role;

	@Column(name = "system_name")
	private String systemName;

	@Column(name = "model_repo")
	private String modelRepo;

	@Column(name = "model_revision")
	private @Nullable String modelRevision;

	@Column(name = "model_commit")
	private @Nullable String modelCommit;

	@Column(name = "engine_name")
	private String engineName;

	@Column(name = "engine_version")
	private @Nullable String engineVersion;

	@Column(name = "harness_name")
	private String harnessName;

	@Column(name = "workload_fingerprint")
	private String workloadFingerprint;

	@Column(name = "cell_count")
	private int cellCount;

	@Column(name = "recorded_at")
	private @Nullable Instant recordedAt;

	@Column(name = "uploaded_at")
	private Instant uploadedAt;

	@Column(name = "uploaded_by")
	private String uploadedBy;

	protected RunSummary() {
		this.id = "";
		this.title = "";
		this.role = "";
		this.systemName = "";
		this.modelRepo = "";
		this.engineName = "";
		this.harnessName = "";
		this.workloadFingerprint = "";
		this.uploadedAt = Instant.EPOCH;
		this.uploadedBy = "";
	}

	public String getId() {
		return id;
	}

	public String getUrl() {
		return "/runs/" + id;
	}

	public String getTitle() {
		return title;
	}

	public String getRole() {
		return role;
	}

	public String getSystemName() {
		return systemName;
	}

	public String getModelRepo() {
		return modelRepo;
	}

	public @Nullable String getModelRevision() {
		return modelRevision;
	}

	public @Nullable String getModelCommit() {
		return modelCommit;
	}

	public boolean isPinned() {
		return modelCommit != null;
	}

	public String getEngineName() {
		return engineName;
	}

	public @Nullable String getEngineVersion() {
		return engineVersion;
	}

	public String getHarnessName() {
		return harnessName;
	}

	public String getWorkloadFingerprint() {
		return workloadFingerprint;
	}

	public int getCellCount() {
		return cellCount;
	}

	public @Nullable Instant getRecordedAt() {
		return recordedAt;
	}

	public Instant getUploadedAt() {
		return uploadedAt;
	}

	public String getUploadedBy() {
		return uploadedBy;
	}

}
