package dev.parity.history;

import java.util.Optional;

import org.springframework.stereotype.Service;

/**
 * Where "this run in its history" leads. A run on the default branch: its series, at the
 * run. A run of another branch (a pull-request run) is judged against its base branch's
 * series, so it leads there, with the run marked ({@code ?mark=}) and its verdict said —
 * not to the few runs of its own branch. Without a base branch series, its own series.
 */
@Service
public class RunHistoryLinks {

	private final SeriesRepository series;

	private final Verdicts verdicts;

	RunHistoryLinks(SeriesRepository series, Verdicts verdicts) {
		this.series = series;
		this.verdicts = verdicts;
	}

	/** The link, or empty for a run in no series (a reference run). */
	public Optional<String> of(String runId) {
		Optional<String> own = series.seriesOf(runId);
		if (own.isEmpty()) {
			return Optional.empty();
		}
		String base = verdicts.baseSeries(runId);
		if (!base.equals(own.get()) && series.key(base).isPresent()) {
			return Optional.of("/series/" + base + "?mark=" + runId + "#marked-run");
		}
		return Optional.of("/series/" + own.get() + "#run-" + runId);
	}

}
