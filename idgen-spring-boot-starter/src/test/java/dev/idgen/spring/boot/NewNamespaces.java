package dev.idgen.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.lease.etcd.EtcdMachineIdLease;
import dev.idgen.lease.redis.RedisMachineIdLease;
import dev.idgen.lease.zookeeper.ZkMachineIdLease;
import io.etcd.jetcd.Client;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;

/**
 * A namespace of each lease store that no test used, marked new once with
 * {@code initializeNewNamespace()}, as a deployment does when it sets up a new key prefix, path or
 * etcd prefix. Without it the first claim in a namespace with no namespace record waits one ttl
 * (a new namespace and an emptied one look the same). A JDBC table needs nothing: the starter
 * creates it with its namespace row.
 */
final class NewNamespaces {

    private NewNamespaces() {
    }

    /** {@return a fresh key prefix starting with {@code tag}, initialised as new on the Redis at {@code url}} */
    static String redis(String url, String tag) {
        String prefix = "idgen:" + tag + ":" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 8) + ":";
        try (RedisClient client = RedisClient.create(url);
                StatefulRedisConnection<String, String> c = client.connect()) {
            // on any server: whether the lease accepts the server's eviction policy is the subject of other tests
            assertThat(RedisMachineIdLease.builder(c).keyPrefix(prefix).acceptEviction(true).initializeNewNamespace())
                    .as("a new namespace record under key prefix " + prefix).isTrue();
        }
        return prefix;
    }

    /** {@return {@code path}, initialised as new on the ZooKeeper at {@code connectString}} */
    static String zookeeper(String connectString, String path) throws InterruptedException {
        try (CuratorFramework c = CuratorFrameworkFactory.newClient(connectString, new RetryOneTime(100))) {
            c.start();
            c.blockUntilConnected();
            assertThat(ZkMachineIdLease.builder(c).path(path).initializeNewNamespace())
                    .as("a new namespace record under " + path).isTrue();
        }
        return path;
    }

    /** {@return {@code namespace}, initialised as new on the etcd at {@code endpoints}} */
    static String etcd(String[] endpoints, String namespace) {
        try (Client c = Client.builder().endpoints(endpoints).build()) {
            assertThat(EtcdMachineIdLease.builder(c).namespace(namespace).initializeNewNamespace())
                    .as("a new namespace record under " + namespace).isTrue();
        }
        return namespace;
    }
}
