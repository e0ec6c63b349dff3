/**
 * Clocks a test controls, for generators that read time through an injected
 * {@link java.time.InstantSource}: {@link dev.idgen.testkit.clock.ManualClock} (set, advance, step
 * back, advance itself as it is read, so spin-waits finish without real sleeping) and
 * {@link dev.idgen.testkit.clock.ScriptedClock} (a fixed list of readings).
 */
package dev.idgen.testkit.clock;
