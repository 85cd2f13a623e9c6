package dev.parity.compare;

import java.lang.reflect.RecordComponent;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

import dev.parity.run.Provenance;
import dev.parity.run.Run;
import org.jspecify.annotations.Nullable;

/**
 * Replicates: runs whose whole provenance is identical — system, checkpoint, engine
 * (version, commit, flags), harness, declared workload, environment, role and source — so
 * that their differences are noise. What the engine printed (its warnings), what the
 * uploader disclosed (caveats) and where it came from (its CI context) are notes about a
 * run, not what it ran, and may differ. Every field of {@link Provenance} takes part,
 * including any added later.
 */
public final class Replicates {

	/**
	 * Fields that describe a run rather than what it ran (context: the branch, pull
	 * request and CI job).
	 */
	private static final Set<String> NOT_COMPARED = Set.of("caveats", "engine.warnings", "context");

	private Replicates() {
	}

	/**
	 * The first field in which two runs differ, e.g. {@code engine.flags}; empty when
	 * they are replicates.
	 */
	public static Optional<String> differingField(Run one, Run other) {
		if (one.role() != other.role()) {
			return Optional.of("role");
		}
		return differing("", one.provenance(), other.provenance());
	}

	/** The first field in which a run of the group differs from the group's first run. */
	public static Optional<String> differingField(List<Run> group) {
		return group.stream()
			.skip(1)
			.map(run -> differingField(group.get(0), run))
			.flatMap(Optional::stream)
			.findFirst();
	}

	/** Whether two runs are replicates of each other. */
	public static boolean areReplicates(Run one, Run other) {
		return differingField(one, other).isEmpty();
	}

	private static Optional<String> differing(String path, @Nullable Object one, @Nullable Object other) {
		if (NOT_COMPARED.contains(path)) {
			return Optional.empty();
		}
		if (one != null && other != null && one.getClass().isRecord() && one.getClass() == other.getClass()) {
			for (RecordComponent component : one.getClass().getRecordComponents()) {
				String field = path.isEmpty() ? component.getName() : path + "." + component.getName();
				Optional<String> found = differing(snakeCase(field), read(component, one), read(component, other));
				if (found.isPresent()) {
					return found;
				}
			}
			return Optional.empty();
		}
		return Objects.equals(one, other) ? Optional.empty() : Optional.of(path);
	}

	private static @Nullable Object read(RecordComponent component, Object record) {
		try {
			return component.getAccessor().invoke(record);
		}
		catch (ReflectiveOperationException ex) {
			throw new IllegalStateException("cannot read " + component.getName(), ex);
		}
	}

	/**
	 * {@code workload.outputTokens} → {@code workload.output_tokens}, as the run document
	 * spells it.
	 */
	private static String snakeCase(String field) {
		return field.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toLowerCase(Locale.ROOT);
	}

}
