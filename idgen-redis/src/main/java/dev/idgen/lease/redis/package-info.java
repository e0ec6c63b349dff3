/**
 * Machine-id leases on Redis over Lettuce: {@link dev.idgen.lease.redis.RedisMachineIdLease} claims
 * the lowest free id with {@code SET NX} in a script, renews it with a compare-owner script that
 * returns the expiry in Redis's own time, fences its generator before Redis could give the id to
 * anyone else, and carries the high-water mark from one holder of an id to the next.
 */
package dev.idgen.lease.redis;
