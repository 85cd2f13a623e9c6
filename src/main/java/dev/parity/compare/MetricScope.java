package dev.parity.compare;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import dev.parity.run.Cell;
import dev.parity.run.MetricCatalogue;
import dev.parity.run.MetricDefinition;
import dev.parity.run.RunDocument;

/**
 * The metrics a check or comparison speaks about: every metric the catalogue and the
 * runs' own definitions know, plus any the cells report, in catalogue order. "Greys
 * everything" greys all of them, whether or not a cell reports them, so a side that
 * reported nothing is still greyed where the other side reported something.
 *
 * @param catalogue the definitions in force
 * @param all every metric's name, catalogue order first, then the others in order of
 * appearance
 */
record MetricScope(MetricCatalogue catalogue, List<String> all) {

	MetricScope {
		all = List.copyOf(all);
	}

	static MetricScope of(RunDocument... runs) {
		List<MetricDefinition> declared = new ArrayList<>();
		for (RunDocument run : runs) {
			declared.addAll(run.provenance().metricDefinitions());
		}
		MetricCatalogue catalogue = MetricCatalogue.of(declared);
		Set<String> names = new LinkedHashSet<>();
		catalogue.all().forEach(definition -> names.add(definition.name()));
		for (RunDocument run : runs) {
			for (Cell cell : run.cells()) {
				names.addAll(cell.metrics().keySet());
				names.addAll(CellMeasures.sampleMetrics(cell));
			}
		}
		return new MetricScope(catalogue, new ArrayList<>(names));
	}

	/** The metrics the runs' cells give a value for, in this scope's order. */
	List<String> reportedBy(RunDocument... runs) {
		Set<String> reported = new HashSet<>();
		for (RunDocument run : runs) {
			run.cells().forEach(cell -> reported.addAll(cell.metrics().keySet()));
		}
		return all.stream().filter(reported::contains).toList();
	}

	List<String> outputSensitive() {
		return all.stream().filter(name -> definition(name).outputSensitive()).toList();
	}

	MetricDefinition definition(String name) {
		return catalogue.get(name);
	}

}
