package dev.parity.site;

import java.util.Map;

import dev.parity.compare.SweepViews;
import tools.jackson.databind.json.JsonMapper;

/**
 * The Pareto view and goodput as Markdown sections, appended to a run's or a comparison's
 * Markdown export: the same numbers and words as the page.
 */
final class SweepExport {

	private SweepExport() {
	}

	/**
	 * The sections for these views ({@code pareto}, and {@code goodput} when objectives
	 * are set).
	 */
	static String markdown(SweepViews.Views views, JsonMapper json) {
		if (views.pareto() == null) {
			return "";
		}
		SweepPage page = SweepPage.of(views, Map.of(), json);
		StringBuilder md = new StringBuilder("\n## Throughput against interactivity (Pareto fronts)\n\n");
		md.append(ComparisonExport.escape(page.axes())).append(". Greyed points are never on a front.\n\n");
		page.equalInteractivity().forEach(line -> md.append("- ").append(ComparisonExport.escape(line)).append('\n'));
		if (!page.equalInteractivity().isEmpty()) {
			md.append('\n');
		}
		md.append("| side | cell | interactivity | throughput | front |\n|---|---|---:|---:|---|\n");
		for (SweepPage.PointRow point : page.points()) {
			md.append("| ")
				.append(point.side().isEmpty() ? "run" : point.side())
				.append(" | ")
				.append(ComparisonExport.escape(point.label()))
				.append(" | ")
				.append(point.interactivity())
				.append(" | ")
				.append(point.throughput())
				.append(" | ")
				.append(point.greyed() ? "greyed: " + ComparisonExport.escape(point.greyedBy())
						: point.onFront() ? "on the front" : "dominated")
				.append(" |\n");
		}
		if (page.objectives() == null) {
			return md.toString();
		}
		md.append("\n## Goodput: ").append(ComparisonExport.escape(page.objectives())).append("\n\n");
		if (page.goodputUnknown() != null) {
			return md.append(page.goodputUnknown()).append(".\n").toString();
		}
		for (SweepPage.GoodputSide side : page.goodput()) {
			md.append("Highest concurrency meeting them (")
				.append(side.side())
				.append("): ")
				.append(ComparisonExport.escape(String.join("; ", side.highest())))
				.append("\n\n");
		}
		md.append("| side | cell | meeting the objectives | requests | meets |\n|---|---|---:|---:|---|\n");
		for (SweepPage.GoodputSide side : page.goodput()) {
			for (SweepPage.GoodputRow row : side.rows()) {
				md.append("| ")
					.append(side.side())
					.append(" | ")
					.append(ComparisonExport.escape(row.label()))
					.append(" | ")
					.append(ComparisonExport.escape(row.share()))
					.append(" | ")
					.append(row.counts())
					.append(" | ")
					.append(ComparisonExport.escape(row.verdict()))
					.append(" |\n");
			}
		}
		return md.toString();
	}

}
