/**
 * Upload pages and the upload API.
 */
@NullMarked
package dev.parity.ingest.web;

import org.jspecify.annotations.NullMarked;
