/**
 * Backup and restore: every run (its uploaded files verbatim, its rows with their ids,
 * upload times and uploaders), caveat, hypothesis status change, publication, retraction
 * and the audit trail as one zip, and that zip restored into an empty instance with the
 * same ids, pages and exports.
 */
@ApplicationModule(allowedDependencies = { "audit", "run", "web" })
@NullMarked
package dev.parity.backup;

import org.jspecify.annotations.NullMarked;

import org.springframework.modulith.ApplicationModule;
