/**
 * Ingest: turning uploaded bytes into stored runs, validating every document and storing nothing of a rejected one.
 */
@NullMarked
package dev.parity.ingest;

import org.jspecify.annotations.NullMarked;
