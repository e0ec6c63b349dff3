package dev.idgen.segment.jdbc;

import dev.idgen.lease.jdbc.SqlDialect;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Whether a database keeps a committed grant through a crash of the server or of its machine, as
 * its settings and the segment table's kind tell: what {@link JdbcSegmentSource} checks before it
 * grants. Each finding names the setting, what it loses and the value that keeps grants.
 *
 * <ul>
 *   <li>PostgreSQL: {@code fsync} and {@code full_page_writes} on (else an operating-system crash
 *       can lose or corrupt committed rows), {@code synchronous_commit} not {@code off} (else the
 *       server reports a commit before its WAL is flushed, and a crash of the server loses the last
 *       commits; PostgreSQL's documentation bounds the window at three times
 *       {@code wal_writer_delay}); the table neither {@code UNLOGGED} (a crash truncates it) nor
 *       temporary.</li>
 *   <li>MariaDB / MySQL: {@code innodb_flush_log_at_trx_commit} 1 (or MariaDB's 3; at 0 a server
 *       crash loses up to a second of commits, at 2 an operating-system crash does), with the
 *       binary log on {@code sync_binlog = 1} (crash recovery rolls back a transaction whose binlog
 *       entry was lost), and the table InnoDB (MEMORY is emptied by a restart, MyISAM and Aria are
 *       not transactional).</li>
 *   <li>H2: nothing is checked; it is a store for tests (in memory it lives and dies with its
 *       JVM).</li>
 * </ul>
 */
final class JdbcDurability {

    private JdbcDurability() {
    }

    /**
     * @param c a connection to the database
     * @param dialect its dialect
     * @param table the segment table, {@code table} or {@code schema.table}
     * @return what would lose a committed grant, empty if nothing
     * @throws SQLException if the settings cannot be read
     */
    static List<String> findings(Connection c, SqlDialect dialect, String table) throws SQLException {
        return switch (dialect) {
            case POSTGRESQL -> postgres(c, table);
            case MYSQL -> mysql(c, table);
            default -> List.of();
        };
    }

    private static List<String> postgres(Connection c, String table) throws SQLException {
        List<String> found = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT current_setting('fsync'),"
                + " current_setting('full_page_writes'), current_setting('synchronous_commit'),"
                + " (SELECT relpersistence FROM pg_class WHERE oid = to_regclass(?))")) {
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                if (!"on".equals(rs.getString(1))) {
                    found.add("fsync is " + rs.getString(1) + " (an operating-system crash can lose or corrupt"
                            + " committed rows; set fsync = on)");
                }
                if (!"on".equals(rs.getString(2))) {
                    found.add("full_page_writes is " + rs.getString(2) + " (an operating-system crash can leave torn"
                            + " pages; set full_page_writes = on)");
                }
                if ("off".equals(rs.getString(3))) {
                    found.add("synchronous_commit is off (a commit is reported before its WAL reaches the disk, so a"
                            + " crash of the server loses the last grants; set synchronous_commit = on, for the"
                            + " database or the role idgen connects as)");
                }
                String persistence = rs.getString(4);
                if ("u".equals(persistence)) {
                    found.add("table " + table + " is UNLOGGED (a crash empties it; ALTER TABLE " + table
                            + " SET LOGGED)");
                } else if ("t".equals(persistence)) {
                    found.add("table " + table + " is temporary (it ends with its session)");
                }
            }
        }
        return found;
    }

    private static List<String> mysql(Connection c, String table) throws SQLException {
        List<String> found = new ArrayList<>();
        int dot = table.indexOf('.');
        try (PreparedStatement ps = c.prepareStatement("SELECT @@innodb_flush_log_at_trx_commit, @@log_bin,"
                + " @@sync_binlog, (SELECT ENGINE FROM information_schema.TABLES WHERE TABLE_SCHEMA = "
                + (dot < 0 ? "DATABASE()" : "?") + " AND TABLE_NAME = ?)")) {
            if (dot < 0) {
                ps.setString(1, table);
            } else {
                ps.setString(1, table.substring(0, dot));
                ps.setString(2, table.substring(dot + 1));
            }
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                int flush = rs.getInt(1);
                if (flush == 0) {
                    found.add("innodb_flush_log_at_trx_commit is 0 (the redo log is written once a second, so a"
                            + " crash of the server loses up to a second of grants; set it to 1)");
                } else if (flush == 2) {
                    found.add("innodb_flush_log_at_trx_commit is 2 (the redo log reaches the disk once a second, so"
                            + " an operating-system crash or power loss loses up to a second of grants; set it to 1)");
                }
                if (rs.getInt(2) != 0 && rs.getInt(3) != 1) {
                    found.add("the binary log is on with sync_binlog = " + rs.getInt(3) + " (an operating-system crash"
                            + " can lose binlog entries, and recovery then rolls back their committed grants; set"
                            + " sync_binlog = 1)");
                }
                String engine = rs.getString(4);
                if (engine != null && !engine.equalsIgnoreCase("InnoDB")) {
                    found.add("table " + table + " uses engine " + engine + " (" + (engine.equalsIgnoreCase("MEMORY")
                            ? "a restart empties it" : "not crash-safe for commits") + "; ALTER TABLE " + table
                            + " ENGINE=InnoDB)");
                }
            }
        }
        return found;
    }
}
