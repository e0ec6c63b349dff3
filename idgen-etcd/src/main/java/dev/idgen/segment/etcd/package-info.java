/**
 * Segment ranges from etcd: {@link dev.idgen.segment.etcd.EtcdSegmentSource}, one key per counter
 * name, moved on by a transaction that compares the key's revision.
 */
package dev.idgen.segment.etcd;
