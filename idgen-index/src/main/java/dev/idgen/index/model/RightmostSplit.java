package dev.idgen.index.model;

/**
 * How an {@link IndexModel} splits the full rightmost leaf, the page every ever-increasing key
 * lands on.
 */
public enum RightmostSplit {
    /**
     * Only an insert past the last key opens a new, empty page and leaves the full one full; any
     * other insert into the full rightmost leaf splits it in half, like every other leaf. The rule
     * as it is usually described, and the default.
     */
    APPEND_ONLY,
    /**
     * An insert into the upper half of the full rightmost leaf splits it at the new key: the keys
     * below stay, the new key and the few above it move to the new page. Closer to what engines do
     * with nearly-sequential inserts (InnoDB splits at the insert point when inserts run
     * sequentially; PostgreSQL keeps its fillfactor, 90 %, on the left of any rightmost split),
     * so time-ordered keys from several writers that interleave within a millisecond keep pages
     * nearly full. An insert into the lower half still splits in half.
     */
    AT_INSERT_POINT
}
