/**
 * Checkers for IDs with readable failures (which positions, which values, how far apart):
 * uniqueness, strict order, k-order and decoded fields, for {@code long} IDs
 * ({@link dev.idgen.testkit.check.IdChecks}) and UUIDs ({@link dev.idgen.testkit.check.UuidChecks}).
 * Failures are {@link java.lang.AssertionError}s, so any test framework reports them.
 */
package dev.idgen.testkit.check;
