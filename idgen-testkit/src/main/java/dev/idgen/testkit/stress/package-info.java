/**
 * A concurrent stress harness ({@link dev.idgen.testkit.stress.StressHarness}): N threads times M
 * IDs from one generator or several, started together, bounded in time, every ID collected and
 * checked for uniqueness and per-thread order.
 */
package dev.idgen.testkit.stress;
