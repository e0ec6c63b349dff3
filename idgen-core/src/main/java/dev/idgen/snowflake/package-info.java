/**
 * 64-bit Snowflake IDs: {@link dev.idgen.snowflake.SnowflakeLayout layouts} (Twitter, Discord,
 * Instagram, Sonyflake, or your own), the lock-free {@link dev.idgen.snowflake.SnowflakeGenerator},
 * the {@link dev.idgen.clock.ClockBackwardsPolicy policies} for a clock that steps back, and
 * the decoder's {@link dev.idgen.snowflake.SnowflakeId}.
 */
package dev.idgen.snowflake;
