package dev.parity.run;

/**
 * Published when a new run has been stored (in the storing transaction): features that follow runs, such as a run's
 * history, listen for it after the commit, so that their work never slows or fails the upload.
 *
 * @param id the new run
 */
public record RunStored(RunId id) {
}
