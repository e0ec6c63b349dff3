package dev.idgen.lease.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.regex.Pattern;

/**
 * The statements on the lease table. Each claim or renewal is one conditional statement, so two
 * claimers racing for one id cannot both win: the database's row lock orders them and the loser's
 * condition no longer holds when it re-reads the row. All times come from the database clock.
 */
final class LeaseTable {

    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,62}(\\.[A-Za-z_][A-Za-z0-9_]{0,62})?");

    final String name;
    final String claimExpired;
    final String insertNew;
    final String renew;
    final String release;
    final String readRow;
    final String scan;
    final String now;
    /** Fails on a table made before the nonce and fence_offset_ms columns. */
    final String probeColumns;

    LeaseTable(String name, SqlDialect dialect) {
        this.name = checkName(name);
        String now = dialect.nowMillis();
        String p = dialect.longParameter();
        // free = expired by the database's clock; token + 1 fences out every earlier holder. The mark
        // is set first (MySQL assigns left to right, so it must read the old expiry and offset). It
        // must reach the old holder's fence, which stood the writer's offset (recorded) before the
        // expiry being replaced; a claimer with a smaller offset of its own must not start below it,
        // hence the smaller of the two. A recorded mark beyond now + the claimer's skew bound is a
        // poisoned one: it is cut back there, never below the old fence. (A release records a mark
        // ahead of the database's now only with an expiry that keeps the old fence above it.)
        this.claimExpired = "UPDATE " + name + " SET high_water_mark = GREATEST(LEAST(high_water_mark, " + now
                + " + " + p + "), expires_ms - LEAST(GREATEST(fence_offset_ms, 0), " + p
                + ") - 1), owner = ?, token = token + 1, nonce = ?, fence_offset_ms = ?, acquired_ms = " + now
                + ", expires_ms = " + now + " + ? WHERE machine_id = ? AND expires_ms < " + now;
        // a primary-key violation means someone else inserted it first
        this.insertNew = "INSERT INTO " + name + " (machine_id, owner, token, nonce, fence_offset_ms, acquired_ms,"
                + " expires_ms, high_water_mark) VALUES (?, ?, 1, ?, ?, " + now + ", " + now + " + ?, "
                + Long.MIN_VALUE + ")";
        // never record a mark beyond the database's now + the writer's skew bound: the row's expiry
        // covers everything above it until the row is free (see release for the one exception)
        String recordMark = "high_water_mark = GREATEST(high_water_mark, LEAST(" + p + ", " + now + " + " + p + "))";
        // only the holder that claimed this generation (owner and token) and that wrote the nonce
        // last can extend it; the new nonce makes every other copy of this holder fail here
        this.renew = "UPDATE " + name + " SET expires_ms = " + now + " + ?, " + recordMark
                + ", nonce = ?, fence_offset_ms = ? WHERE machine_id = ? AND owner = ? AND token = ? AND nonce IN (?, ?)";
        // a release frees the row at once, unless the holder's mark is ahead of the database's now
        // (a holder clock ahead of the database's, or a generator run ahead): then the row stays
        // live until the next claim's floor (expiry - offset - 1) covers the mark, never later than
        // the expiry it had; so a claimer may cut any recorded mark back to its own now + skew
        this.release = "UPDATE " + name + " SET expires_ms = CASE WHEN " + p + " > " + now
                + " THEN LEAST(expires_ms, " + p + ") ELSE " + now + " - 1 END, " + recordMark
                + " WHERE machine_id = ? AND owner = ? AND token = ? AND nonce IN (?, ?)";
        this.readRow = "SELECT owner, token, nonce, expires_ms, high_water_mark, " + now + " FROM " + name
                + " WHERE machine_id = ?";
        this.scan = "SELECT machine_id, expires_ms, " + now + " FROM " + name
                + " WHERE machine_id <= ? ORDER BY machine_id";
        this.now = "SELECT " + now;
        this.probeColumns = "SELECT nonce, fence_offset_ms FROM " + name + " WHERE 1 = 0";
    }

    /** {@return whether the table has the columns this version writes (nonce, fence_offset_ms)} */
    boolean hasCurrentColumns(Connection c) {
        try (PreparedStatement ps = c.prepareStatement(probeColumns)) {
            ps.executeQuery().close();
            return true;
        } catch (SQLException e) {
            return false;
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
