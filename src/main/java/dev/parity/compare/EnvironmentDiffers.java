package dev.parity.compare;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import dev.parity.run.Provenance;
import org.jspecify.annotations.Nullable;

/**
 * {@code environment-differs}: the software environment differs between the runs, both
 * sides having a value. A different gpu, gpu count, driver, CUDA (major.minor) or
 * container digest moves numbers as much as a code change: it greys everything, unless
 * {@code vary=environment} (then it annotates). Other differences — container image name,
 * operating system, kernel, Python packages, other entries — are annotated, side by side.
 */
final class EnvironmentDiffers implements ProvenanceRule, Remedy {

	static final String ID = "environment-differs";

	static final String VARIABLE = "environment";

	/** The fields whose difference greys everything. */
	static final Set<String> GREYING = Set.of("environment.gpu", "environment.gpu_count", "environment.driver",
			"environment.cuda", "environment.container_digest");

	/**
	 * The GPUs and their count: the hardware, which no rerun of the same system changes.
	 */
	private static final Set<String> HARDWARE = Set.of("environment.gpu", "environment.gpu_count");

	@Override
	public String id() {
		return ID;
	}

	/**
	 * Each greying field set on the rerun side to the other side's value (driver, CUDA,
	 * container digest); other GPUs cannot be settled by a rerun. Nothing when the
	 * environment is what the comparison varies.
	 */
	@Override
	public void settle(Settling plan) {
		if (plan.settings().varies(VARIABLE)) {
			return;
		}
		plan.rows(ID).stream().filter(row -> GREYING.contains(row.field())).forEach(row -> {
			if (!plan.canRerun() || HARDWARE.contains(row.field())) {
				plan.cannot(ID, "other hardware (" + row.sideBySide() + "): no rerun on the same system removes it"
						+ " — compare with vary=environment");
				return;
			}
			Object to = plan.value(plan.otherSide(), row.field());
			plan.change(ID, row.field(), plan.value(plan.side(), row.field()), to,
					"run with the same " + row.field().substring("environment.".length()).replace('_', ' ') + " as "
							+ plan.name(plan.otherSide()) + ": " + to);
		});
	}

	@Override
	public List<Flag> check(List<ProvenanceDifference> differences, ComparisonContext context) {
		List<ProvenanceDifference> triggered = differences.stream().filter(row -> ID.equals(row.rule())).toList();
		List<ProvenanceDifference> greying = triggered.stream().filter(row -> GREYING.contains(row.field())).toList();
		List<ProvenanceDifference> beside = triggered.stream().filter(row -> !GREYING.contains(row.field())).toList();
		List<Flag> flags = new ArrayList<>();
		if (!greying.isEmpty()) {
			String found = "the environment differs: " + sideBySide(greying);
			flags.add(context.settings().varies(VARIABLE)
					? Flag.annotation(ID, brief(greying),
							found + ": the variable this comparison sets out to vary (vary=environment)")
					: Flag.greying(ID, brief(greying),
							found + ": not one variable at a time — run both on the same "
									+ "GPUs, driver, CUDA and container, or compare with vary=environment",
							context.metrics().all()));
		}
		if (!beside.isEmpty()) {
			flags.add(Flag.annotation(ID, brief(beside), "the environment also differs in: " + sideBySide(beside)
					+ " — usually harmless, shown so it can be ruled out"));
		}
		return flags;
	}

	/**
	 * The first difference, and how many more:
	 * {@code environment.driver 550 vs 570 (+1 more)}.
	 */
	private static String brief(List<ProvenanceDifference> rows) {
		return rows.get(0).sideBySide() + (rows.size() > 1 ? " (+" + (rows.size() - 1) + " more)" : "");
	}

	private static String sideBySide(List<ProvenanceDifference> rows) {
		return rows.stream().map(ProvenanceDifference::sideBySide).collect(Collectors.joining("; "));
	}

	/**
	 * The diff rows of two environments: every field both describe; CUDA compared on
	 * major.minor; one row per Python package or other entry that both list (a package on
	 * one side only is unknown, and would fill the diff).
	 */
	static List<ProvenanceDifference> rows(Provenance.@Nullable Environment baseline,
			Provenance.@Nullable Environment contender) {
		List<ProvenanceDifference> rows = new ArrayList<>();
		if (baseline == null && contender == null) {
			return rows;
		}
		Provenance.Environment none = new Provenance.Environment(null, null, null, null, null, null, null, null,
				Map.of(), Map.of());
		Provenance.Environment base = baseline == null ? none : baseline;
		Provenance.Environment other = contender == null ? none : contender;
		rows.add(row("environment.gpu", base.gpu(), other.gpu(), Objects.equals(base.gpu(), other.gpu())));
		rows.add(row("environment.gpu_count", base.gpuCount(), other.gpuCount(),
				Objects.equals(base.gpuCount(), other.gpuCount())));
		rows.add(row("environment.driver", base.driver(), other.driver(),
				Objects.equals(base.driver(), other.driver())));
		rows.add(row("environment.cuda", base.cuda(), other.cuda(),
				Objects.equals(majorMinor(base.cuda()), majorMinor(other.cuda()))));
		rows.add(row("environment.container_image", base.containerImage(), other.containerImage(),
				Objects.equals(base.containerImage(), other.containerImage())));
		rows.add(row("environment.container_digest", base.containerDigest(), other.containerDigest(),
				Objects.equals(base.containerDigest(), other.containerDigest())));
		rows.add(row("environment.os", base.os(), other.os(), Objects.equals(base.os(), other.os())));
		rows.add(row("environment.kernel", base.kernel(), other.kernel(),
				Objects.equals(base.kernel(), other.kernel())));
		entries("environment.python_packages.", base.pythonPackages(), other.pythonPackages(), rows);
		entries("environment.other.", base.other(), other.other(), rows);
		return rows;
	}

	private static void entries(String prefix, Map<String, String> baseline, Map<String, String> contender,
			List<ProvenanceDifference> rows) {
		Set<String> names = new TreeSet<>(baseline.keySet());
		names.retainAll(contender.keySet());
		for (String name : names) {
			String a = baseline.get(name);
			String b = contender.get(name);
			if (!Objects.equals(a, b)) {
				rows.add(row(prefix + name, a, b, false));
			}
		}
	}

	private static ProvenanceDifference row(String field, @Nullable Object baseline, @Nullable Object contender,
			boolean same) {
		String status = baseline == null || contender == null ? ProvenanceDifference.UNKNOWN
				: same ? ProvenanceDifference.SAME : ProvenanceDifference.DIFFERS;
		return new ProvenanceDifference(field, baseline == null ? null : baseline.toString(),
				contender == null ? null : contender.toString(), status,
				status.equals(ProvenanceDifference.DIFFERS) ? ID : null);
	}

	/** {@code 12.4.1} → {@code 12.4}; a version without a minor part as written. */
	static @Nullable String majorMinor(@Nullable String version) {
		if (version == null) {
			return null;
		}
		String[] parts = version.strip().split("\\.");
		return parts.length < 2 ? version.strip() : parts[0] + "." + parts[1];
	}

}
