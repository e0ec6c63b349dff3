/**
 * Machine-id leases on ZooKeeper through Apache Curator: {@link dev.idgen.lease.zookeeper.ZkMachineIdLease}
 * keeps the lease records of core's one lease life ({@link dev.idgen.lease.StoreLease}) in persistent
 * znodes, compared and replaced by versioned writes, with the leader's clock as the store's.
 */
package dev.idgen.lease.zookeeper;
