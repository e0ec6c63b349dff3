package dev.idgen.spring.boot;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code idgen.segment.<name>.*}: one segment generator per name, each counting in ranges its store
 * grants (see {@code docs/segments.md}).
 *
 * <pre>
 * idgen.segment.orders.step=1000
 * idgen.segment.invoices.store=redis
 * </pre>
 */
@ConfigurationProperties("idgen")
public class IdgenSegmentProperties {

    /** The segment counters by name. */
    private final Map<String, Counter> segment = new LinkedHashMap<>();

    /** Made by Spring. */
    public IdgenSegmentProperties() {
    }

    /** {@return the counters by name} */
    public Map<String, Counter> getSegment() {
        return segment;
    }

    /** Where a counter's ranges come from. */
    public enum Store {
        /** The first the application has: jdbc (a DataSource), redis, zookeeper, etcd (a client bean). */
        AUTO,
        /** A table in the application's DataSource (idgen-jdbc). */
        JDBC,
        /** The application's {@code StatefulRedisConnection<String, String>} bean (idgen-redis). */
        REDIS,
        /** The application's {@code CuratorFramework} bean (idgen-zookeeper). */
        ZOOKEEPER,
        /** The application's jetcd {@code Client} bean (idgen-etcd). */
        ETCD
    }

    /**
     * Where a counter is kept: the store and its table, key prefix, znode or namespace. Shared by
     * {@code idgen.segment.<name>.*} and {@code idgen.business-number.<name>.*}.
     */
    public static class StoreSettings {
        /** Where the ranges come from. */
        private Store store = Store.AUTO;
        /** The JDBC table of counters (store jdbc). */
        private String table = "idgen_segment";
        /** Whether to create the JDBC table if it is missing (store jdbc). */
        private boolean createTable = true;
        /** The Redis key prefix (store redis). */
        private String keyPrefix = "idgen:segment:";
        /** The parent znode (store zookeeper). */
        private String path = "/idgen/segments";
        /** The key namespace (store etcd). */
        private String namespace = "/idgen/segments";

        /** Made by Spring. */
        public StoreSettings() {
        }

        /** {@return where the ranges come from} */
        public Store getStore() {
            return store;
        }

        /** @param store where the ranges come from */
        public void setStore(Store store) {
            this.store = store;
        }

        /** {@return the JDBC table} */
        public String getTable() {
            return table;
        }

        /** @param table the JDBC table */
        public void setTable(String table) {
            this.table = table;
        }

        /** {@return whether to create the JDBC table} */
        public boolean isCreateTable() {
            return createTable;
        }

        /** @param createTable whether to create the JDBC table */
        public void setCreateTable(boolean createTable) {
            this.createTable = createTable;
        }

        /** {@return the Redis key prefix} */
        public String getKeyPrefix() {
            return keyPrefix;
        }

        /** @param keyPrefix the Redis key prefix */
        public void setKeyPrefix(String keyPrefix) {
            this.keyPrefix = keyPrefix;
        }

        /** {@return the parent znode} */
        public String getPath() {
            return path;
        }

        /** @param path the parent znode */
        public void setPath(String path) {
            this.path = path;
        }

        /** {@return the etcd key namespace} */
        public String getNamespace() {
            return namespace;
        }

        /** @param namespace the etcd key namespace */
        public void setNamespace(String namespace) {
            this.namespace = namespace;
        }
    }

    /** {@code idgen.segment.<name>.*}. */
    public static class Counter extends StoreSettings {
        /** Numbers per grant, 1 to 2^40. */
        private long step = 1000;
        /** Fewest ranges kept ready beyond the current one. */
        private int prefetchMin = 1;
        /** Most ranges kept ready beyond the current one (at most 1024). */
        private int prefetchMax = 128;
        /** How long the ready ranges should last at the current rate. */
        private Duration horizon = Duration.ofSeconds(1);
        /** The longest a call waits for the store once every range is spent. */
        private Duration maxWait = Duration.ofSeconds(1);

        /** Made by Spring. */
        public Counter() {
        }

        /** {@return numbers per grant} */
        public long getStep() {
            return step;
        }

        /** @param step numbers per grant */
        public void setStep(long step) {
            this.step = step;
        }

        /** {@return fewest ranges kept ready} */
        public int getPrefetchMin() {
            return prefetchMin;
        }

        /** @param prefetchMin fewest ranges kept ready */
        public void setPrefetchMin(int prefetchMin) {
            this.prefetchMin = prefetchMin;
        }

        /** {@return most ranges kept ready} */
        public int getPrefetchMax() {
            return prefetchMax;
        }

        /** @param prefetchMax most ranges kept ready */
        public void setPrefetchMax(int prefetchMax) {
            this.prefetchMax = prefetchMax;
        }

        /** {@return how long the ready ranges should last} */
        public Duration getHorizon() {
            return horizon;
        }

        /** @param horizon how long the ready ranges should last */
        public void setHorizon(Duration horizon) {
            this.horizon = horizon;
        }

        /** {@return the longest wait for the store once every range is spent} */
        public Duration getMaxWait() {
            return maxWait;
        }

        /** @param maxWait the longest wait for the store once every range is spent */
        public void setMaxWait(Duration maxWait) {
            this.maxWait = maxWait;
        }
    }
}
