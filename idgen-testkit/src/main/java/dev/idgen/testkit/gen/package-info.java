/**
 * Seeded generators for property tests, framework-neutral (a {@link java.util.SplittableRandom}
 * in, values out), so they drive JUnit, QuickTheories or any other tool: Snowflake layouts and
 * machine ids ({@link dev.idgen.testkit.gen.Layouts}), clock scripts
 * ({@link dev.idgen.testkit.gen.ClockScripts}), and a runner that names the seed of a failing case
 * ({@link dev.idgen.testkit.gen.Seeds}). Seeded ID streams from several generators are idgen-index's
 * {@code dev.idgen.index.model.IdStreams} (the index model is fed by them); the testkit does not
 * depend on idgen-index.
 */
package dev.idgen.testkit.gen;
