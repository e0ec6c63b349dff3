/**
 * Segment numbers: short, dense, increasing {@code long}s for order numbers, invoice numbers and
 * small keys, where a 64-bit Snowflake is too long to read out or too sparse.
 *
 * <p>The concept: a store (a database row, a Redis key) keeps one counter per name. A generator
 * does not ask it for every number; it asks for a range ("segment") of {@code step} numbers in one
 * atomic increment of the store ({@link dev.idgen.segment.spi.SegmentSource#grant}) and counts through
 * the range in memory. The store's increment is the only authority: no range is granted twice, so
 * any number of generators in any number of processes never repeat a number (invariant 7), and a
 * restart only leaves a gap (the unused rest of what the process held). While one range is counted
 * out, the next ones are fetched in the background, so callers almost never wait for the store.
 *
 * <ul>
 *   <li>{@link dev.idgen.segment.SegmentGenerator}: the lock-free, allocation-free generator with
 *       adaptive prefetch and a bounded wait;</li>
 *   <li>{@link dev.idgen.segment.spi.SegmentSource} and {@link dev.idgen.segment.spi.SegmentGrant}: the SPI
 *       a store implements; {@link dev.idgen.segment.InMemorySegmentSource} for tests;</li>
 *   <li>{@link dev.idgen.segment.BusinessNumberFormat} and
 *       {@link dev.idgen.segment.BusinessNumberGenerator}: numbers such as
 *       {@code INV-20261203-000042}, counted per day, month or year of the store's date.</li>
 * </ul>
 * See {@code docs/segments.md}.
 */
package dev.idgen.segment;
