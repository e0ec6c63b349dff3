/**
 * A {@link dev.idgen.segment.spi.SegmentSource} on Redis ({@code INCRBY}) through Lettuce:
 * {@link dev.idgen.segment.redis.RedisSegmentSource}. It sits in this module because the module
 * already brings the Redis client; it has its own package because a segment counter is no lease
 * (when the module becomes {@code idgen-redis}, both stay side by side, as in core).
 */
package dev.idgen.segment.redis;
