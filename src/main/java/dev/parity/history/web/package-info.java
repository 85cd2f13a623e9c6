/** The JSON API and pages of history: series, their points, alerts. */
@NullMarked
package dev.parity.history.web;

import org.jspecify.annotations.NullMarked;
