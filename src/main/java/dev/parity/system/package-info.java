/**
 * The application's plumbing: the database, error handling and the demo story.
 */
@NullMarked
package dev.parity.system;

import org.jspecify.annotations.NullMarked;
