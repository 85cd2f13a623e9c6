/**
 * The pages of accounts: a user's own account and API tokens, and the administrator's
 * user list.
 */
@NullMarked
package dev.parity.account.web;

import org.jspecify.annotations.NullMarked;
