package dev.idgen.segment.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.segment.spi.SegmentStoreRefusedException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * The checks {@link JdbcSegmentSource} makes before it grants, on the shared servers without
 * changing them: a table of a kind a crash empties, and a session setting that reports commits
 * before they reach the disk. The settings only a private server can change (fsync, the InnoDB
 * flush) are in {@link JdbcStoreCrashTest}.
 */
class JdbcDurabilityTest {

    @Test
    void anUnloggedPostgresTableIsRefusedNamingIt() throws Exception {
        SegmentDatabase db = SegmentDatabase.POSTGRESQL;
        DataSource ds = db.dataSource();
        String table = SegmentDatabase.freshTable();
        try {
            execute(ds, "CREATE UNLOGGED TABLE " + table + " (name VARCHAR(128) NOT NULL PRIMARY KEY,"
                    + " last_value BIGINT NOT NULL, pattern VARCHAR(100))");
            SegmentStoreRefusedException e = assertThrows(SegmentStoreRefusedException.class,
                    () -> JdbcSegmentSource.builder(ds).table(table).build());
            assertEquals("segment table " + table + " on postgresql is refused: it may lose a grant after it was"
                    + " committed, and numbers would then repeat: table " + table + " is UNLOGGED (a crash empties"
                    + " it; ALTER TABLE " + table + " SET LOGGED). Change the setting, or accept such a store with"
                    + " allowLossyStore(true)", e.getMessage());
            JdbcSegmentSource accepted = JdbcSegmentSource.builder(ds).table(table).allowLossyStore(true).build();
            assertEquals(1, accepted.grant("orders", 3).first());
            execute(ds, "ALTER TABLE " + table + " SET LOGGED");
            JdbcSegmentSource.builder(ds).table(table).build().checkStore();
        } finally {
            db.drop(table);
        }
    }

    @Test
    void postgresWithSynchronousCommitOffIsRefused() {
        SegmentDatabase db = SegmentDatabase.POSTGRESQL;
        String table = SegmentDatabase.freshTable();
        try {
            JdbcSegmentSource.builder(db.dataSource()).table(table).createTable(true).build();
            // the role or the database could say the same; here the connection's startup options do
            String url = db.url() + (db.url().contains("?") ? "&" : "?") + "options=-c%20synchronous_commit%3Doff";
            DataSource off = new SegmentDatabase.Direct(url, db.user);
            SegmentStoreRefusedException e = assertThrows(SegmentStoreRefusedException.class,
                    () -> JdbcSegmentSource.builder(off).table(table).build());
            assertTrue(e.getMessage().contains("synchronous_commit is off (a commit is reported before its WAL reaches"
                    + " the disk, so a crash of the server loses the last grants;"), e.getMessage());
        } finally {
            db.drop(table);
        }
    }

    @Test
    void aMariaDbMemoryTableIsRefusedNamingItsEngine() throws Exception {
        SegmentDatabase db = SegmentDatabase.MARIADB;
        DataSource ds = db.dataSource();
        String table = SegmentDatabase.freshTable();
        try {
            execute(ds, "CREATE TABLE " + table + " (name VARCHAR(128) NOT NULL PRIMARY KEY,"
                    + " last_value BIGINT NOT NULL, pattern VARCHAR(100)) ENGINE=MEMORY");
            SegmentStoreRefusedException e = assertThrows(SegmentStoreRefusedException.class,
                    () -> JdbcSegmentSource.builder(ds).table(table).build());
            assertTrue(e.getMessage().contains("table " + table + " uses engine MEMORY (a restart empties it; ALTER"
                    + " TABLE " + table + " ENGINE=InnoDB)"), e.getMessage());
            execute(ds, "ALTER TABLE " + table + " ENGINE=InnoDB");
            assertEquals(1, JdbcSegmentSource.builder(ds).table(table).build().grant("orders", 2).first());
        } finally {
            db.drop(table);
        }
    }

    private static void execute(DataSource ds, String sql) throws SQLException {
        try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }
}
