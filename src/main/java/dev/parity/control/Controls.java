package dev.parity.control;

import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import dev.parity.audit.AuditTrail;
import dev.parity.caveat.Caveats.RecordChanged;
import dev.parity.ingest.RunFileRejected;
import dev.parity.run.RunId;
import dev.parity.run.RunStored;
import org.jspecify.annotations.Nullable;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.event.EventListener;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * The control runs declared for comparisons of two single runs: declared in the control's
 * run document ({@code "context": {"control_of": "<baseline>...<contender>"}}, stored
 * with the run) or afterwards through the API. Declarations are append-only; each one
 * moves the record versions of the comparison's two runs, so that kept pages, ETags and
 * publications' pages show it at once.
 */
@Service
public class Controls {

	/** Where a run document declares the comparison it controls. */
	public static final String DOCUMENT_FIELD = "$.context.control_of";

	private final JdbcClient jdbc;

	private final ApplicationEventPublisher events;

	private final AuditTrail audit;

	Controls(JdbcClient jdbc, ApplicationEventPublisher events, AuditTrail audit) {
		this.jdbc = jdbc;
		this.events = events;
		this.audit = audit;
	}

	/**
	 * A control run as declared.
	 *
	 * @param control the control run's id
	 * @param baseline the controlled comparison's baseline
	 * @param contender the controlled comparison's contender
	 * @param declaredIn {@code document} or {@code api}
	 * @param declaredBy who declared it
	 * @param declaredAt when
	 */
	public record Declared(String control, String baseline, String contender, String declaredIn, String declaredBy,
			Instant declaredAt) {
	}

	/**
	 * Declares a run the control of the comparison {@code baseline...contender};
	 * declaring it again changes nothing.
	 * @return the declaration, new or as declared before
	 * @throws ControlRejected naming the field and why; nothing is stored then
	 */
	@Transactional
	public Declared declare(String control, String of, String user) {
		return declare(control, of, user, "api", "control", "of");
	}

	private Declared declare(String control, String of, String user, String declaredIn, String controlField,
			String ofField) {
		String[] pair = pair(of, ofField);
		if (!RunId.isValid(control)) {
			throw new ControlRejected(controlField, "No run with id '" + control + "'", true);
		}
		if (control.equals(pair[0]) || control.equals(pair[1])) {
			throw new ControlRejected(controlField,
					"run " + control + " is a side of the comparison " + of + ": a control is another run", false);
		}
		Set<String> known = new HashSet<>(jdbc.sql("select id from run where id in (?, ?, ?)")
			.params(control, pair[0], pair[1])
			.query(String.class)
			.list());
		for (String id : List.of(pair[0], pair[1])) {
			if (!known.contains(id)) {
				throw new ControlRejected(ofField, "No run with id '" + id + "' (in \"" + of + "\")", true);
			}
		}
		if (!known.contains(control)) {
			throw new ControlRejected(controlField, "No run with id '" + control + "'", true);
		}
		int inserted = jdbc.sql("""
				insert into control_link (id, control_id, baseline_id, contender_id, declared_in, declared_by)
				values (?, ?, ?, ?, ?, ?) on conflict (control_id, baseline_id, contender_id) do nothing""")
			.params(RunId.random().value(), control, pair[0], pair[1], declaredIn, user)
			.update();
		if (inserted > 0) {
			audit.done("declare-control", control, "control of " + pair[0] + "..." + pair[1] + " (" + declaredIn + ")");
			// The declaration is part of the controlled comparison's record: its pages
			// show it at once.
			events.publishEvent(new RecordChanged(new LinkedHashSet<>(List.of(pair[0], pair[1]))));
		}
		return find(control, pair[0], pair[1]);
	}

	/** The controls declared for this comparison, the first declared first. */
	public List<Declared> of(String baseline, String contender) {
		return jdbc.sql("""
				select control_id, baseline_id, contender_id, declared_in, declared_by, declared_at from control_link
				where baseline_id = ? and contender_id = ? order by declared_at, id""")
			.params(baseline, contender)
			.query((rs, n) -> new Declared(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
					rs.getString(5), rs.getTimestamp(6).toInstant()))
			.list();
	}

	private Declared find(String control, String baseline, String contender) {
		return of(baseline, contender).stream()
			.filter(declared -> declared.control().equals(control))
			.findFirst()
			.orElseThrow();
	}

	/**
	 * {@code [baseline, contender]} of {@code baseline...contender}: two single runs, no
	 * group, no fixed params.
	 */
	private static String[] pair(@Nullable String of, String field) {
		if (of == null || of.isBlank()) {
			throw new ControlRejected(field, "name the comparison the run controls: \"<baseline>...<contender>\"",
					false);
		}
		int dots = of.indexOf("...");
		if (dots < 0) {
			throw new ControlRejected(field, "\"" + of + "\" is not a comparison: write \"<baseline>...<contender>\"",
					false);
		}
		String baseline = of.substring(0, dots);
		String contender = of.substring(dots + 3);
		for (String side : List.of(baseline, contender)) {
			if (side.contains("+") || side.contains("@") || side.contains(",") || side.contains("...")) {
				throw new ControlRejected(field, "a control settles a comparison of two single runs, not \"" + of
						+ "\" (groups, several contenders and fixed params are not controlled)", false);
			}
			if (!RunId.isValid(side)) {
				throw new ControlRejected(field, "No run with id '" + side + "' (in \"" + of + "\")", true);
			}
		}
		if (baseline.equals(contender)) {
			throw new ControlRejected(field, "\"" + of + "\" compares a run with itself: nothing to control", false);
		}
		return new String[] { baseline, contender };
	}

	/**
	 * A run stored with {@code context.control_of} in its document is declared the
	 * control of that comparison in the storing transaction: a declaration that cannot be
	 * stored rejects the upload, and nothing is stored.
	 */
	@EventListener
	void runStored(RunStored stored) {
		String of = jdbc.sql("select provenance -> 'context' ->> 'control_of' from run where id = ?")
			.param(stored.id().value())
			.query(String.class)
			.optional()
			.orElse(null);
		if (of == null) {
			return;
		}
		try {
			declare(stored.id().value(), of, uploader(stored.id().value()), "document", "control", "of");
		}
		catch (ControlRejected rejected) {
			throw new RunFileRejected(DOCUMENT_FIELD, rejected.getMessage());
		}
	}

	private String uploader(String runId) {
		return jdbc.sql("select uploaded_by from run where id = ?").param(runId).query(String.class).single();
	}

}
