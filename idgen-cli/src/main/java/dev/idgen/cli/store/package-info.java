/**
 * The segment stores {@code idgen segment} takes ranges from: a JDBC table, Redis, ZooKeeper or
 * etcd, each opened from one command-line address and closed with the run.
 */
package dev.idgen.cli.store;
