/**
 * The JSON API of control runs: what run would settle a comparison ({@code GET
 * /api/compare/{b}...{c}/control}) and declaring a control ({@code POST /api/controls}).
 */
@NullMarked
package dev.parity.control.web;

import org.jspecify.annotations.NullMarked;
