/**
 * jcstress tests of the hand-over between the ranges of a {@code SegmentGenerator}: callers that
 * cross from one range to the next while the fetch that appends the following range runs on
 * another thread. Each state starts with one number taken, so the actors begin at a range's last
 * number; the in-memory store's counter says what was granted.
 */
package dev.idgen.jcstress.segment;
