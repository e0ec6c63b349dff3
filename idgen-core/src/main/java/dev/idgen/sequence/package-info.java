/**
 * Internal, not exported: the packed (tick, counter) state that the time-ordered generators share.
 */
package dev.idgen.sequence;
