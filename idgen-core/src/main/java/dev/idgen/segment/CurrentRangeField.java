package dev.idgen.segment;

/**
 * {@link SegmentGenerator}'s current range, on a cache line of its own. Every call reads it; the
 * fetch thread writes the generator's other fields (the chain's tail, its timing and failure
 * state) once or twice per grant, and a caller sharing a line with them misses on its next read
 * after each such write. Without the pads, which fields shared the line with the current range
 * changed with the object's address (it is 8-byte aligned, a line is 64 bytes), so the cost
 * changed from one run to the next. Superclass fields are laid out before a subclass's, and a
 * subclass's small fields fill the holes its superclasses left: the pads leave none but the one
 * {@link #currentFill} takes, so only {@code current} and pads lie within 64 bytes of it.
 */
abstract class CurrentRangeField extends CurrentRangePadBefore {
    /** The range callers count in. Moves only forward along the chain, and only off a spent range. */
    volatile SegmentGenerator.Segment current;
    /** Takes the 4 bytes beside a compressed reference, so no field of the generator lands there. */
    int currentFill;
}

/** The 64 bytes before {@link CurrentRangeField#current}. */
abstract class CurrentRangePadBefore {
    /** Takes the hole after the object header, which a subclass's small field would fill otherwise. */
    int p00;
    long p01, p02, p03, p04, p05, p06, p07, p08;
}

/** The 64 bytes after {@link CurrentRangeField#current}. */
abstract class CurrentRangePadAfter extends CurrentRangeField {
    long p11, p12, p13, p14, p15, p16, p17, p18;
}
