/**
 * idgen lease on etcd: {@link dev.idgen.lease.etcd.EtcdMachineIdLease}, the lease life every store
 * shares, on records kept in etcd keys and written by compare-revision transactions. etcd shows no
 * clock, so every fence counts the skew bound twice. Bring a jetcd {@code Client}.
 */
package dev.idgen.lease.etcd;
