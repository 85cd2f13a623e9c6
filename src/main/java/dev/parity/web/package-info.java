/**
 * What the web layers of every feature share: the error body of the API, RFC 9457 problem
 * details ({@code application/problem+json}) that list each problem with its JSON path in
 * {@code errors}.
 */
@ApplicationModule(allowedDependencies = {})
@NullMarked
package dev.parity.web;

import org.jspecify.annotations.NullMarked;

import org.springframework.modulith.ApplicationModule;
