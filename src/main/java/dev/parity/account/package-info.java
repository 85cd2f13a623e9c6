/**
 * Accounts: who may write, and how they sign in. Accounts are ordinary records (not
 * append-only).
 */
@ApplicationModule(allowedDependencies = { "audit", "run", "web" })
@NullMarked
package dev.parity.account;

import org.jspecify.annotations.NullMarked;

import org.springframework.modulith.ApplicationModule;
