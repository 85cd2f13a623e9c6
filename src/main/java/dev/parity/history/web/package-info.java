/**
 * The JSON API and pages of history: series with their points, charts and settings,
 * alerts with their status and confirmation reruns, and the webhooks that tell of them.
 */
@NullMarked
package dev.parity.history.web;

import org.jspecify.annotations.NullMarked;
