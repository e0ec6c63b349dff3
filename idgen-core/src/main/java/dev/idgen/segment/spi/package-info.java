/**
 * For segment store implementers: the contract a store keeps
 * ({@link dev.idgen.segment.spi.SegmentSource}: grant a range of a named counter in one atomic
 * operation, tell the store's time, record the pattern of business numbers, check that the store
 * keeps what it grants), the range it answers with ({@link dev.idgen.segment.spi.SegmentGrant}) and
 * the refusal of a store that cannot keep its counters or has lost one
 * ({@link dev.idgen.segment.spi.SegmentStoreRefusedException}). A store module implements only this; the
 * generators in {@link dev.idgen.segment} do the rest. Users of segment numbers need this package
 * only to pass a store to a generator.
 */
package dev.idgen.segment.spi;
