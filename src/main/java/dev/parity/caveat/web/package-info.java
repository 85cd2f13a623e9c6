/**
 * The JSON API of caveats and hypotheses ({@code /api/caveats}), and what the pages that
 * show a caveat form share: the caveats as JSON, the form shown again with its problems
 * (the named interface {@code caveat :: web}, for the pages of {@code site}).
 */
@NamedInterface("web")
@NullMarked
package dev.parity.caveat.web;

import org.jspecify.annotations.NullMarked;

import org.springframework.modulith.NamedInterface;
