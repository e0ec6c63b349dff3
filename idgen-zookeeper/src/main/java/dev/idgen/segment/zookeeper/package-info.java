/**
 * Segment ranges from ZooKeeper: {@link dev.idgen.segment.zookeeper.ZkSegmentSource}, one znode per
 * counter name, moved on by a version-checked write.
 */
package dev.idgen.segment.zookeeper;
