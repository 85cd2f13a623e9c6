package dev.parity.run;

/**
 * Published when a new run has been stored (in the storing transaction): features that
 * follow runs, such as a run's history, may do what must be atomic with the run in its
 * transaction, and anything more after the commit, so that their work never slows or
 * fails the upload.
 *
 * @param id the new run
 * @param role its role
 * @param provenance its provenance
 */
public record RunStored(RunId id, Role role, Provenance provenance) {
}
