/**
 * The administrator's backup download and restore upload (page and API).
 */
@NullMarked
package dev.parity.backup.web;

import org.jspecify.annotations.NullMarked;
