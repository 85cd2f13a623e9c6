package dev.parity.compare;

import java.util.List;

import dev.parity.run.Provenance;

/**
 * {@code unpinned}: no resolved commit, only a revision such as "main". Annotates the
 * run: it cannot claim a checkpoint.
 */
final class Unpinned implements RunRule {

	static final String ID = "unpinned";

	@Override
	public List<Flag> check(RunContext context) {
		Provenance.Model model = context.run().provenance().model();
		if (model.pinned()) {
			return List.of();
		}
		String revision = model.revision();
		String what = revision == null ? "no revision and no resolved commit recorded"
				: "only revision '" + revision + "' recorded, no resolved commit";
		return List.of(Flag.annotation(ID, revision == null ? "no commit recorded" : "unpinned: " + revision + " moves",
				what + ": " + (revision == null ? "the checkpoint is unknown" : revision + " moves")
						+ "; this run cannot claim a checkpoint — pin the commit"));
	}

}
