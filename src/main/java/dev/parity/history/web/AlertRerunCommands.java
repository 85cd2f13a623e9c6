package dev.parity.history.web;

import dev.parity.run.RerunCommands;
import dev.parity.history.RerunCommandWriter;
import dev.parity.run.Run;

import org.springframework.stereotype.Component;

/**
 * The rerun commands of an alert's confirmation plan: a run's commands exactly as its
 * page gives them.
 */
@Component
class AlertRerunCommands implements RerunCommandWriter {

	@Override
	public Commands commands(Run run) {
		RerunCommands commands = RerunCommands.of(run);
		return new Commands(commands.serve(), commands.bench());
	}

}
