/**
 * What every time-ordered generator (Snowflake, monotonic UUIDv7) does when the clock reads earlier
 * than the last tick it used: the {@link dev.idgen.clock.ClockBackwardsPolicy policies} and the
 * {@link dev.idgen.clock.ClockMovedBackwardsException} a refusal throws. The lowest layer of core:
 * it depends on no other idgen package.
 */
package dev.idgen.clock;
