/**
 * Machine-id leases on ZooKeeper through Apache Curator: {@link dev.idgen.lease.zookeeper.ZkMachineIdLease}
 * holds the lowest free id as an ephemeral node, fences its generator the moment the connection is
 * suspended or lost, and carries the high-water mark from one holder of an id to the next.
 */
package dev.idgen.lease.zookeeper;
