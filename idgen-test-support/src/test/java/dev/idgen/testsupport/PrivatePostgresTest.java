package dev.idgen.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/**
 * The private server is what a fresh machine's PostgreSQL tests run on, so it is started here
 * whatever the machine has (as root too, through {@code unshare -U}).
 */
class PrivatePostgresTest {

    @Test
    void startsFromTheMavenPackagedBinariesAndTakesWritesInItsTestDatabase() throws Exception {
        PrivatePostgres p = PrivatePostgres.start();
        assertTrue(p.url().matches("jdbc:postgresql://127\\.0\\.0\\.1:\\d+/test"), p.url());
        assertTrue(p.version().startsWith("14."), p.version());
        try (Connection c = new TestPostgres.Server(p.url(), "postgres", "", true).connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE t (id BIGINT PRIMARY KEY)");
            st.execute("INSERT INTO t VALUES (1), (2), (3)");
            try (ResultSet r = st.executeQuery("SELECT count(*), current_database() FROM t")) {
                r.next();
                assertEquals(3, r.getLong(1));
                assertEquals("test", r.getString(2));
            }
        }
    }
}
