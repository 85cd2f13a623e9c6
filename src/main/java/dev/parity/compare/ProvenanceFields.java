package dev.parity.compare;

import java.util.LinkedHashMap;
import java.util.Map;

import dev.parity.run.CommitSha;
import dev.parity.run.Provenance;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A run's provenance read, and changed, by the paths a control plan names
 * ({@code model.commit}, {@code engine.flags.kv-cache-dtype},
 * {@code workload.request_params}, {@code workload.request_params.max_tokens},
 * {@code workload.warmup_requests}, {@code environment.driver} …): values typed as the
 * run document has them, a flag found by its normalised name, {@code null} where the run
 * says nothing.
 */
public final class ProvenanceFields {

	private static final String FLAGS = "engine.flags.";

	private static final String PARAMS = "workload.request_params";

	private ProvenanceFields() {
	}

	/**
	 * The field's value, or {@code null} when the run has none (or the path names nothing
	 * Parity reads).
	 */
	public static @Nullable Object value(Provenance provenance, String field) {
		if (field.startsWith(FLAGS)) {
			String wanted = Provenance.Engine.normaliseFlag(field.substring(FLAGS.length()));
			return provenance.engine()
				.flags()
				.entrySet()
				.stream()
				.filter(flag -> Provenance.Engine.normaliseFlag(flag.getKey()).equals(wanted))
				.map(Map.Entry::getValue)
				.findFirst()
				.orElse(null);
		}
		if (field.startsWith(PARAMS + ".")) {
			JsonNode params = provenance.workload().requestParams();
			JsonNode value = params == null ? null : params.get(field.substring(PARAMS.length() + 1));
			return value == null || value.isNull() ? null : value;
		}
		Provenance.Environment environment = provenance.environment();
		return switch (field) {
			case "system.name" -> provenance.system().name();
			case "system.hardware" -> provenance.system().hardware();
			case "model.repo" -> provenance.model().repo();
			case "model.revision" -> provenance.model().revision();
			case "model.commit" -> provenance.model().commit() == null ? null : provenance.model().commit().value();
			case "engine.name" -> provenance.engine().name();
			case "engine.version" -> provenance.engine().version();
			case "harness.name" -> provenance.harness().name();
			case "harness.version" -> provenance.harness().version();
			case "workload.dataset" -> provenance.workload().dataset();
			case "workload.output_tokens" -> provenance.workload().outputTokens();
			case "workload.reasoning" -> provenance.workload().reasoning();
			case PARAMS -> provenance.workload().requestParams();
			case "workload.warmup_requests" -> provenance.workload().warmupRequests();
			case "environment.gpu" -> environment == null ? null : environment.gpu();
			case "environment.gpu_count" -> environment == null ? null : environment.gpuCount();
			case "environment.driver" -> environment == null ? null : environment.driver();
			case "environment.cuda" -> environment == null ? null : environment.cuda();
			case "environment.container_image" -> environment == null ? null : environment.containerImage();
			case "environment.container_digest" -> environment == null ? null : environment.containerDigest();
			default -> null;
		};
	}

	/**
	 * The provenance with the planned changes applied, for the rerun commands: the
	 * commit, engine name and version, flags, harness, dataset and declared workload;
	 * other fields (measured ones, the environment) are left as they are.
	 */
	public static Provenance applied(Provenance provenance, Iterable<ControlChange> changes) {
		Provenance.Model model = provenance.model();
		Provenance.Engine engine = provenance.engine();
		Provenance.Harness harness = provenance.harness();
		Provenance.Workload workload = provenance.workload();
		Map<String, String> flags = new LinkedHashMap<>(engine.flags());
		String engineName = engine.name();
		String engineVersion = engine.version();
		String harnessName = harness.name();
		String harnessVersion = harness.version();
		String dataset = workload.dataset();
		Integer outputTokens = workload.outputTokens();
		String reasoning = workload.reasoning();
		JsonNode params = workload.requestParams();
		Integer warmup = workload.warmupRequests();
		for (ControlChange change : changes) {
			Object to = change.to();
			String text = to == null ? null
					: to instanceof JsonNode node && node.isValueNode() ? node.asString() : to.toString();
			String field = change.field();
			if (field.startsWith(FLAGS)) {
				String wanted = Provenance.Engine.normaliseFlag(field.substring(FLAGS.length()));
				flags.keySet().removeIf(name -> Provenance.Engine.normaliseFlag(name).equals(wanted));
				if (text != null) {
					flags.put(field.substring(FLAGS.length()), text);
				}
				continue;
			}
			if (field.startsWith(PARAMS + ".")) {
				ObjectNode changed = params != null && params.isObject() ? ((ObjectNode) params).deepCopy()
						: JsonNodeFactory.instance.objectNode();
				String name = field.substring(PARAMS.length() + 1);
				if (to == null) {
					changed.remove(name);
				}
				else {
					changed.set(name, to instanceof JsonNode node ? node : JsonNodeFactory.instance.pojoNode(to));
				}
				params = changed;
				continue;
			}
			switch (field) {
				case "model.commit" -> model = new Provenance.Model(model.repo(), text,
						text == null ? null : CommitSha.isValid(text) ? CommitSha.of(text) : model.commit());
				case "engine.name" -> engineName = text == null ? engineName : text;
				case "engine.version" -> engineVersion = text;
				case "harness.name" -> harnessName = text == null ? harnessName : text;
				case "harness.version" -> harnessVersion = text;
				case "workload.dataset" -> dataset = text;
				case "workload.output_tokens" ->
					outputTokens = to instanceof Number number ? number.intValue() : outputTokens;
				case "workload.reasoning" -> reasoning = text;
				case PARAMS -> params = to instanceof JsonNode node ? node : null;
				case "workload.warmup_requests" -> warmup = to instanceof Number number ? number.intValue() : warmup;
				default -> {
					// Measured fields and the environment: what the control must show,
					// not a setting of a command.
				}
			}
		}
		return new Provenance(provenance.source(), provenance.system(), model,
				new Provenance.Engine(engineName, engineVersion, flags, engine.warnings(), engine.commit()),
				new Provenance.Harness(harnessName, harnessVersion, harness.command(), harness.tokenCounting()),
				new Provenance.Workload(dataset, outputTokens, reasoning, params, warmup),
				provenance.metricDefinitions(), provenance.caveats(), provenance.context(), provenance.environment());
	}

}
