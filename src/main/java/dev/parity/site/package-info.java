/**
 * The pages and read API that gather several features: the start page, run lists and run pages.
 */
@NullMarked
package dev.parity.site;

import org.jspecify.annotations.NullMarked;
