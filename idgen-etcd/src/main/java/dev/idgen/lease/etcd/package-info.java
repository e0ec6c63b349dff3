/**
 * idgen lease on etcd: {@link dev.idgen.lease.etcd.EtcdMachineIdLease} holds a machine id as a key
 * created under an etcd lease, keeps the lease alive, fences its generator before the lease could
 * have expired on the server (reckoned in the holder's own time, since etcd expires leases by the
 * leader's elapsed time and shows no wall clock), and carries the high-water mark from one holder to
 * the next in a key of its own. Bring a jetcd {@code Client}.
 */
package dev.idgen.lease.etcd;
