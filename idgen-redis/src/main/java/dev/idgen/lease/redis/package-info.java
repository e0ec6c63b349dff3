/**
 * Machine-id leases on Redis over Lettuce: {@link dev.idgen.lease.redis.RedisMachineIdLease} runs
 * core's lease life ({@link dev.idgen.lease.StoreLease}) on records kept in Redis hashes under one
 * hash tag, written by compare-and-set Lua scripts and judged by Redis's own clock.
 */
package dev.idgen.lease.redis;
