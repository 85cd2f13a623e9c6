package dev.parity.run;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The metrics Parity knows by default, plus those a run document declares.
 */
public final class MetricCatalogue {

	private static final MetricCatalogue DEFAULTS = new MetricCatalogue(Map.of()).withAll(
			new MetricDefinition("ttft_s", "s", false, false),
			new MetricDefinition("prefill_tps", "tokens/s", true, false),
			new MetricDefinition("decode_tps", "tokens/s per request", true, true),
			new MetricDefinition("throughput_tps", "output tokens/s", true, true),
			new MetricDefinition("tpot_ms", "ms", false, true), new MetricDefinition("itl_ms", "ms", false, true),
			new MetricDefinition("e2e_latency_s", "s", false, true),
			new MetricDefinition("request_throughput", "requests/s", true, true));

	private final Map<String, MetricDefinition> definitions;

	private MetricCatalogue(Map<String, MetricDefinition> definitions) {
		this.definitions = definitions;
	}

	/** The catalogue of src/docs/design/PRODUCT.md. */
	public static MetricCatalogue defaults() {
		return DEFAULTS;
	}

	/**
	 * The defaults plus a run's own definitions (which may not redefine a catalogue
	 * metric).
	 */
	public static MetricCatalogue of(Collection<MetricDefinition> declared) {
		return DEFAULTS.withAll(declared.toArray(MetricDefinition[]::new));
	}

	private MetricCatalogue withAll(MetricDefinition... more) {
		Map<String, MetricDefinition> all = new LinkedHashMap<>(definitions);
		for (MetricDefinition definition : more) {
			all.putIfAbsent(definition.name(), definition);
		}
		return new MetricCatalogue(all);
	}

	public Optional<MetricDefinition> find(String name) {
		return Optional.ofNullable(definitions.get(name));
	}

	public boolean knows(String name) {
		return definitions.containsKey(name);
	}

	/** Every known metric, catalogue order first. */
	public Collection<MetricDefinition> all() {
		return definitions.values();
	}

	/**
	 * A metric not in the catalogue and not declared: treated as lower-is-better,
	 * output-insensitive.
	 */
	public MetricDefinition get(String name) {
		return find(name).orElseGet(() -> new MetricDefinition(name, "", false, false));
	}

}
