package dev.parity.site;

import java.util.Map;
import dev.parity.compare.ThresholdDefaults;

import dev.parity.compare.CompareSettings;
import dev.parity.compare.RunChecks;
import dev.parity.compare.RunFlags;
import dev.parity.compare.ServiceLevels;
import dev.parity.compare.SweepViews;
import dev.parity.run.Run;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ResponseStatusException;

/**
 * The Pareto view and goodput of one run, for its page and its JSON, with the
 * service-level objectives of the URL ({@code slo_ttft_s}, {@code slo_tpot_ms},
 * {@code slo_e2e_s}, {@code slo_share}) and the run's checks under the server's
 * thresholds.
 */
@Component
class SweepViewing {

	private final ThresholdDefaults defaults;

	private final JsonMapper json;

	SweepViewing(ThresholdDefaults defaults, JsonMapper json) {
		this.defaults = defaults;
		this.json = json;
	}

	/**
	 * {@code pareto} and, when an objective is set, {@code goodput}.
	 * @throws ResponseStatusException 400 naming a bad objective
	 */
	SweepViews.Views ofRun(Run run, Map<String, String> query) {
		ServiceLevels slo = objectives(query);
		RunFlags flags = RunChecks.check(run.document(), defaults.settings());
		return new SweepViews.Views(SweepViews.paretoOfRun(run, flags),
				slo.any() ? SweepViews.goodputOfRun(run, flags, slo) : null);
	}

	/** What the run page shows of these views. */
	SweepPage page(SweepViews.Views views, Map<String, String> query) {
		return SweepPage.of(views, query, json);
	}

	private ServiceLevels objectives(Map<String, String> query) {
		try {
			CompareSettings settings = defaults.settings();
			return settings.slo().withOverrides(query);
		}
		catch (IllegalArgumentException ex) {
			throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "Bad SLO setting: " + ex.getMessage());
		}
	}

}
