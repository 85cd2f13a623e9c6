/**
 * Controls: the run that settles a confounded comparison. A run is declared the control
 * of a comparison of two single runs (in its document, {@code context.control_of}, or
 * afterwards through the API; append-only, part of the comparison's record), and the
 * comparison's control plan lists what each declared control holds and missed, and what
 * it shows beside the claim.
 */
@ApplicationModule(allowedDependencies = { "audit", "caveat", "compare", "snapshots", "ingest", "run", "web" })
@NullMarked
package dev.parity.control;

import org.jspecify.annotations.NullMarked;

import org.springframework.modulith.ApplicationModule;
