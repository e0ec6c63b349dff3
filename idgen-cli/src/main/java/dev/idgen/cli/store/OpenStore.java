package dev.idgen.cli.store;

import dev.idgen.segment.spi.SegmentSource;
import dev.idgen.segment.etcd.EtcdSegmentSource;
import dev.idgen.segment.jdbc.JdbcSegmentSource;
import dev.idgen.segment.redis.RedisSegmentSource;
import dev.idgen.segment.zookeeper.ZkSegmentSource;
import io.etcd.jetcd.Client;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import java.io.PrintWriter;
import java.net.URI;
import java.net.URISyntaxException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;

/**
 * A segment store opened for one command-line run: the source ranges are taken from, where it is
 * (for messages), and what to close afterwards (the client the run opened).
 */
public final class OpenStore implements AutoCloseable {

    /** How long one command-line run waits for a store to answer before it gives up. */
    public static final Duration TIMEOUT = Duration.ofSeconds(3);

    private final SegmentSource source;
    private final String address;
    private final AutoCloseable client;

    private OpenStore(SegmentSource source, String address, AutoCloseable client) {
        this.source = source;
        this.address = address;
        this.client = client;
    }

    /** {@return the source to take ranges from} */
    public SegmentSource source() {
        return source;
    }

    /** {@return where the store is, as given on the command line} */
    public String address() {
        return address;
    }

    /**
     * A table reached through {@link DriverManager}, one connection per range.
     *
     * @param url a JDBC URL
     * @param user the user, empty for none
     * @param password the password, empty for none
     * @param table the segment table
     * @param createTable whether to create it when missing
     * @param allowLossyStore whether to accept a database that may lose a committed grant
     * @return the store
     * @throws IllegalArgumentException for a bad table name
     * @throws IllegalStateException if the database cannot be used
     */
    public static OpenStore jdbc(String url, String user, String password, String table, boolean createTable,
            boolean allowLossyStore) {
        JdbcSegmentSource source = JdbcSegmentSource.builder(new Direct(url, user, password)).table(table)
                .createTable(createTable).allowLossyStore(allowLossyStore).build();
        return new OpenStore(source, url, () -> { });
    }

    /**
     * Redis through one Lettuce connection.
     *
     * @param url a Redis URI, e.g. {@code redis://127.0.0.1:6379}
     * @param keyPrefix put before each counter's name to make its key
     * @param allowLossyStore whether to accept a server that may lose an acknowledged grant
     * @return the store, connected
     * @throws IllegalArgumentException for a URI Lettuce cannot read or a bad prefix
     * @throws IllegalStateException if the server does not answer
     */
    public static OpenStore redis(String url, String keyPrefix, boolean allowLossyStore) {
        RedisURI uri;
        try {
            uri = RedisURI.create(url);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("--redis-url '" + url + "' is not a Redis URI (" + e.getMessage()
                    + "); expected e.g. redis://127.0.0.1:6379", e);
        }
        uri.setTimeout(TIMEOUT);
        RedisClient client = RedisClient.create(uri);
        client.setOptions(ClientOptions.builder().autoReconnect(false)
                .socketOptions(SocketOptions.builder().connectTimeout(TIMEOUT).build()).build());
        AutoCloseable close = () -> client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        try {
            RedisSegmentSource.Builder b;
            StatefulRedisConnection<String, String> connection = client.connect();
            b = RedisSegmentSource.builder(connection).timeout(TIMEOUT).allowLossyStore(allowLossyStore);
            if (keyPrefix != null) {
                b.keyPrefix(keyPrefix);
            }
            return new OpenStore(b.build(), url, close);
        } catch (IllegalArgumentException e) {
            closeQuietly(close);
            throw e;
        } catch (RuntimeException e) {
            closeQuietly(close);
            throw new IllegalStateException("cannot connect to Redis at " + url + ": " + e.getMessage(), e);
        }
    }

    /**
     * ZooKeeper through a Curator client.
     *
     * @param connect {@code host:port}, or several separated by commas
     * @param path the counters' parent znode, or null for the source's default
     * @return the store, connected
     * @throws IllegalArgumentException for a malformed address or path
     * @throws IllegalStateException if no server answers within {@link #TIMEOUT}
     */
    public static OpenStore zookeeper(String connect, String path) {
        for (String hostPort : connect.split(",", -1)) {
            checkHostPort(connect, hostPort);
        }
        ZkSegmentSource.Builder b = null;
        CuratorFramework client = CuratorFrameworkFactory.builder().connectString(connect)
                .connectionTimeoutMs((int) TIMEOUT.toMillis()).sessionTimeoutMs(30_000)
                .retryPolicy(new RetryNTimes(2, 200)).build();
        try {
            b = ZkSegmentSource.builder(client);
            if (path != null) {
                b.path(path);
            }
        } catch (IllegalArgumentException e) {
            client.close();
            throw e;
        }
        client.start();
        boolean connected;
        try {
            connected = client.blockUntilConnected((int) TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            connected = false;
        }
        if (!connected) {
            client.close();
            throw new IllegalStateException("cannot connect to ZooKeeper at " + connect + ": no answer within "
                    + TIMEOUT.toMillis() + " ms");
        }
        return new OpenStore(b.build(), connect, client::close);
    }

    /**
     * etcd through a jetcd client.
     *
     * @param endpoints {@code http://host:port}, or several separated by commas
     * @param namespace put before {@code /<name>} to make each key, or null for the source's default
     * @return the store (jetcd connects on the first call)
     * @throws IllegalArgumentException for a malformed endpoint or namespace
     */
    public static OpenStore etcd(String endpoints, String namespace) {
        String[] each = endpoints.split(",", -1);
        for (String e : each) {
            checkEndpoint(endpoints, e);
        }
        Client client = Client.builder().endpoints(each)
                .connectTimeout(TIMEOUT).build();
        try {
            EtcdSegmentSource.Builder b = EtcdSegmentSource.builder(client).timeout(TIMEOUT);
            if (namespace != null) {
                b.namespace(namespace);
            }
            return new OpenStore(b.build(), endpoints, client::close);
        } catch (RuntimeException e) {
            client.close();
            throw e;
        }
    }

    private static void checkHostPort(String all, String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        boolean ok = colon > 0 && colon < hostPort.length() - 1;
        if (ok) {
            try {
                int port = Integer.parseInt(hostPort.substring(colon + 1));
                ok = port >= 1 && port <= 65535;
            } catch (NumberFormatException e) {
                ok = false;
            }
        }
        if (!ok) {
            throw new IllegalArgumentException("--zookeeper '" + all + "': '" + hostPort + "' is not host:port with a"
                    + " port 1..65535; expected e.g. 127.0.0.1:2181 or a,b,c separated by commas");
        }
    }

    private static void checkEndpoint(String all, String endpoint) {
        String why = null;
        try {
            URI u = new URI(endpoint);
            if (!"http".equals(u.getScheme()) && !"https".equals(u.getScheme())) {
                why = "it is not http:// or https://";
            } else if (u.getHost() == null || u.getPort() < 1) {
                why = "it names no host and port";
            }
        } catch (URISyntaxException e) {
            why = e.getMessage();
        }
        if (why != null) {
            throw new IllegalArgumentException("--etcd '" + all + "': '" + endpoint + "' is not an etcd endpoint ("
                    + why + "); expected e.g. http://127.0.0.1:2379, several separated by commas");
        }
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception e) {
            // already failing: the first error is the one reported
        }
    }

    /** Closes the client this run opened; the store keeps what it granted. */
    @Override
    public void close() {
        closeQuietly(client);
    }

    /** Connections through DriverManager: one per range, enough for a command-line run. */
    private record Direct(String url, String user, String password) implements DataSource {
        Direct {
            Objects.requireNonNull(url, "url");
        }

        @Override
        public Connection getConnection() throws SQLException {
            return DriverManager.getConnection(url, user, password);
        }

        @Override
        public Connection getConnection(String u, String p) throws SQLException {
            return DriverManager.getConnection(url, u, p);
        }

        @Override
        public PrintWriter getLogWriter() {
            return null;
        }

        @Override
        public void setLogWriter(PrintWriter out) {
        }

        @Override
        public void setLoginTimeout(int seconds) {
        }

        @Override
        public int getLoginTimeout() {
            return 0;
        }

        @Override
        public Logger getParentLogger() {
            return Logger.getGlobal();
        }

        @Override
        public <T> T unwrap(Class<T> iface) throws SQLException {
            throw new SQLException("not a wrapper");
        }

        @Override
        public boolean isWrapperFor(Class<?> iface) {
            return false;
        }
    }
}
