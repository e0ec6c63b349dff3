package dev.idgen.lease.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A lease table: its statements, and how it is made or brought up to date. A row per machine id,
 * and the namespace in the row {@code machine_id = -1} (layout in {@code owner}, highest id in
 * {@code token}, the time new rows are free from in {@code high_water_mark}, and an
 * {@code expires_ms} no claim ever passes); the shipped DDL ({@code ddl/*.sql}) says what each
 * column holds.
 */
final class LeaseTable {

    /** The machine id of the namespace row. */
    static final long NAMESPACE = -1;

    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,62}(\\.[A-Za-z_][A-Za-z0-9_]{0,62})?");
    private static final String RECORD = "owner, token, nonce, expires_ms, high_water_mark, fence_offset_ms";

    final String name;
    final SqlDialect dialect;
    final String now;
    final String readNamespace;
    final String insertNamespace;
    final String updateNamespace;
    final String presentIds;
    final String insertRecord;
    final String read;
    final String replace;
    /** Fails unless the table has every column this version writes. */
    private final String probe;

    LeaseTable(String name, SqlDialect dialect) {
        this.name = checkName(name);
        this.dialect = dialect;
        String dbNow = dialect.nowMillis();
        this.now = "SELECT " + dbNow;
        this.readNamespace = "SELECT owner, token, nonce, high_water_mark FROM " + name + " WHERE machine_id = "
                + NAMESPACE;
        this.insertNamespace = "INSERT INTO " + name + " (machine_id, owner, token, nonce, high_water_mark, expires_ms,"
                + " fence_offset_ms, acquired_ms) VALUES (" + NAMESPACE + ", ?, ?, ?, ?, " + Long.MAX_VALUE + ", 0, "
                + dbNow + ")";
        this.updateNamespace = "UPDATE " + name + " SET owner = ?, token = ?, nonce = ?, high_water_mark = ?"
                + " WHERE machine_id = " + NAMESPACE + " AND nonce = ?";
        this.presentIds = "SELECT machine_id FROM " + name + " WHERE machine_id BETWEEN ? AND ?";
        this.insertRecord = "INSERT INTO " + name + " (machine_id, " + RECORD + ", acquired_ms) VALUES"
                + " (?, ?, ?, ?, ?, ?, ?, " + dbNow + ")";
        this.read = "SELECT machine_id, " + RECORD + " FROM " + name + " WHERE machine_id BETWEEN ? AND ?"
                + " ORDER BY machine_id";
        // acquired_ms first: MySQL assigns left to right, and it must compare the old token
        this.replace = "UPDATE " + name + " SET acquired_ms = CASE WHEN token = ? THEN acquired_ms ELSE " + dbNow
                + " END, owner = ?, token = ?, nonce = ?, expires_ms = ?, high_water_mark = ?, fence_offset_ms = ?"
                + " WHERE machine_id = ? AND nonce = ?";
        this.probe = "SELECT machine_id, " + RECORD + ", acquired_ms FROM " + name + " WHERE 1 = 0";
    }

    /**
     * Makes the table with its namespace row if there is none, in one transaction where the
     * database allows DDL in one (PostgreSQL); else brings a table of an earlier version up to date
     * (the nonce and the writer's fence offset, 0 on old rows: a claim then assumes the narrowest
     * fence offset, the safe side). A table that exists gets no namespace row: nothing proves it
     * new, so the lease treats it as emptied (its first claim of an id without a row waits one ttl).
     *
     * @param c a connection in auto-commit mode
     * @return whether this call made the table
     * @throws SQLException if the database refuses
     */
    boolean create(Connection c) throws SQLException {
        if (exists(c)) {
            if (!current(c)) {
                try (Statement st = c.createStatement()) {
                    for (String alter : dialect.addNewColumns(name)) {
                        st.execute(alter);
                    }
                }
            }
            return false;
        }
        SQLException failure;
        c.setAutoCommit(false);
        try (Statement st = c.createStatement()) {
            for (String sql : dialect.createTable(name)) {
                st.execute(sql);
            }
            c.commit();
            return true;
        } catch (SQLException e) {
            c.rollback();
            failure = e;
        } finally {
            c.setAutoCommit(true);
        }
        if (exists(c)) {
            return false; // another process made it first, with its namespace row
        }
        throw failure;
    }

    /**
     * Checks that the table exists with every column this version writes.
     *
     * @param c a connection
     * @throws SQLException naming the table and what makes it, if it does not
     */
    void check(Connection c) throws SQLException {
        SQLException e = failure(c, probe);
        if (e != null) {
            throw new SQLException("Lease table " + name + " is missing, or lacks columns of this version (" + e.getMessage()
                    + "): create it with createTable(true), which also adds the columns a table of an earlier version"
                    + " lacks, or run the shipped DDL dev/idgen/lease/jdbc/ddl/"
                    + dialect.name().toLowerCase(Locale.ROOT) + ".sql once", e);
        }
    }

    private boolean exists(Connection c) {
        return failure(c, "SELECT 1 FROM " + name + " WHERE 1 = 0") == null;
    }

    private boolean current(Connection c) {
        return failure(c, probe) == null;
    }

    /** Runs a probe; {@return why it failed, or null} (on PostgreSQL, call it outside a transaction). */
    private static SQLException failure(Connection c, String query) {
        try (Statement st = c.createStatement()) {
            st.executeQuery(query).close();
            return null;
        } catch (SQLException e) {
            return e;
        }
    }

    static String checkName(String table) {
        if (table == null || !NAME.matcher(table).matches()) {
            throw new IllegalArgumentException("Lease table name '" + table
                    + "' is not a plain SQL identifier (letters, digits, _; optionally schema.table)");
        }
        return table;
    }
}
