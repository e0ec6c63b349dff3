package dev.idgen.lease.jdbc;

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

    LeaseTable(String name, SqlDialect dialect) {
        this.name = checkName(name);
        String now = dialect.nowMillis();
        // free = expired by the database's clock; token + 1 fences out every earlier holder. The mark
        // is raised first (MySQL assigns left to right) from the expiry being replaced: the earlier
        // holder's fence stood at least the fence offset (the ? = offset + 1) before it.
        this.claimExpired = "UPDATE " + name + " SET high_water_mark = CASE WHEN high_water_mark < expires_ms - ?"
                + " THEN expires_ms - ? ELSE high_water_mark END, owner = ?, token = token + 1, acquired_ms = "
                + now + ", expires_ms = " + now + " + ? WHERE machine_id = ? AND expires_ms < " + now;
        // a primary-key violation means someone else inserted it first
        this.insertNew = "INSERT INTO " + name + " (machine_id, owner, token, acquired_ms, expires_ms, high_water_mark)"
                + " VALUES (?, ?, 1, " + now + ", " + now + " + ?, " + Long.MIN_VALUE + ")";
        String raiseMark = "high_water_mark = CASE WHEN high_water_mark < ? THEN ? ELSE high_water_mark END";
        // only the holder that claimed this generation (owner and token) can extend it
        this.renew = "UPDATE " + name + " SET expires_ms = " + now + " + ?, " + raiseMark
                + " WHERE machine_id = ? AND owner = ? AND token = ?";
        this.release = "UPDATE " + name + " SET expires_ms = " + now + " - 1, " + raiseMark
                + " WHERE machine_id = ? AND owner = ? AND token = ?";
        this.readRow = "SELECT owner, token, expires_ms, high_water_mark, " + now + " FROM " + name
                + " WHERE machine_id = ?";
        this.scan = "SELECT machine_id, expires_ms, " + now + " FROM " + name
                + " WHERE machine_id <= ? ORDER BY machine_id";
        this.now = "SELECT " + now;
    }

    static String checkName(String table) {
        if (table == null || !NAME.matcher(table).matches()) {
            throw new IllegalArgumentException("Lease table name '" + table
                    + "' is not a plain SQL identifier (letters, digits, _; optionally schema.table)");
        }
        return table;
    }
}
