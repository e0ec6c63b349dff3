package dev.idgen.testsupport;

import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

/**
 * The PostgreSQL server the tests use. The configured one ({@code idgen.test.postgresql.url},
 * default {@code jdbc:postgresql://127.0.0.1:5432/test}, user {@code postgres}, no password) when it
 * answers; otherwise, outside CI, a private server of this JVM started from PostgreSQL binaries
 * packaged for Maven ({@link PrivatePostgres}), so {@code mvn -B verify} on a machine with only a
 * JDK and Maven still runs the PostgreSQL tests. Under CI ({@code CI=true}) a configured server
 * that does not answer fails the test, unless {@code -Didgen.test.postgresql.private=true} asks for
 * the private one.
 */
public final class TestPostgres {

    /** The server a test connects to. */
    public record Server(String url, String user, String password, boolean isPrivate) {

        /**
         * {@return a new connection}
         *
         * @throws SQLException if the server refuses it
         */
        public Connection connect() throws SQLException {
            return DriverManager.getConnection(url, user, password);
        }
    }

    private static final String CONFIGURED =
            System.getProperty("idgen.test.postgresql.url", "jdbc:postgresql://127.0.0.1:5432/test");
    private static Server server;
    private static RuntimeException unavailable;

    private TestPostgres() {
    }

    /**
     * {@return the server, found or started once per JVM}
     *
     * @throws RuntimeException from {@link Missing#server}: under CI a failure, else a skip naming
     *     what to install
     */
    public static synchronized Server server() {
        if (server != null) {
            return server;
        }
        if (unavailable != null) {
            throw unavailable;
        }
        String refused = refusal(CONFIGURED, "postgres", "");
        if (refused == null) {
            return server = new Server(CONFIGURED, "postgres", "", false);
        }
        String detail = CONFIGURED + " does not answer (" + refused + ")";
        if (Missing.underCi() && !Boolean.getBoolean("idgen.test.postgresql.private")) {
            throw unavailable = Missing.server("PostgreSQL", detail, Missing.apt("postgresql"));
        }
        try {
            PrivatePostgres p = PrivatePostgres.start();
            server = new Server(p.url(), "postgres", "", true);
            System.out.println("idgen tests: " + detail + "; started a private PostgreSQL " + p.version() + " at "
                    + p.url());
            return server;
        } catch (IOException | RuntimeException e) {
            throw unavailable = Missing.server("PostgreSQL", detail + ", and no private server could start ("
                    + e.getMessage() + ")", Missing.apt("postgresql"));
        }
    }

    /** {@return null if {@code url} answers, else why not} */
    static String refusal(String url, String user, String password) {
        try (Connection c = DriverManager.getConnection(url + (url.contains("?") ? "&" : "?") + "connectTimeout=2",
                user, password)) {
            return c.isValid(2) ? null : "connection not valid";
        } catch (SQLException e) {
            return e.getMessage();
        }
    }
}
