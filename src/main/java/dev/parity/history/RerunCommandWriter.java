package dev.parity.history;

import dev.parity.run.Run;
import org.jspecify.annotations.Nullable;

/**
 * Writes the commands that run a run again (its serve and harness commands, as the run
 * page and the comparison's control plan write them): what an alert's confirmation plan
 * hands over with each rerun. Written where those commands are built; a plan without a
 * writer has no commands.
 */
public interface RerunCommandWriter {

	/**
	 * The commands of one run.
	 *
	 * @param serve the serve command, with comment lines before it; {@code null} for an
	 * engine Parity knows no command for
	 * @param bench the harness command as recorded, with the harness, workload and grid
	 * as comment lines before it
	 */
	record Commands(@Nullable String serve, String bench) {
	}

	Commands commands(Run run);

}
