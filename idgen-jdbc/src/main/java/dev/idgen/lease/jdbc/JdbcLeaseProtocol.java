package dev.idgen.lease.jdbc;

import dev.idgen.machine.MachineIdLeaseException;
import dev.idgen.machine.spi.LeaseSettings;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import javax.sql.DataSource;

/**
 * The lease's conversation with its table, and nothing else: claim, renew, release, read a row.
 * Each write is one conditional statement that the database's row lock orders, so two claimers
 * cannot both win; each read brackets the database clock with two local clock reads, for the skew.
 * Every method takes a connection for its statements and closes it. Thread-safe (no state but
 * configuration).
 */
final class JdbcLeaseProtocol {

    private final DataSource dataSource;
    private final LeaseTable table;
    private final String owner;
    private final long ttlMillis;
    /** maxClockSkew + safetyMargin: recorded with every write, so a claimer knows where our fence stood. */
    private final long fenceOffsetMillis;
    /** maxClockSkew: no mark we record lies beyond the database's now plus this. */
    private final long maxSkewMillis;
    private final int queryTimeoutSeconds;
    private final InstantSource clock;
    /**
     * Nonces come from the operating system's entropy pool on each call (NativePRNG mixes
     * /dev/urandom into every output), so two copies of one restored image draw different ones.
     */
    private final SecureRandom nonces = new SecureRandom();

    JdbcLeaseProtocol(DataSource dataSource, LeaseTable table, String owner, long ttlMillis, long fenceOffsetMillis,
            long maxSkewMillis, int queryTimeoutSeconds, InstantSource clock) {
        this.dataSource = dataSource;
        this.table = table;
        this.owner = owner;
        this.ttlMillis = ttlMillis;
        this.fenceOffsetMillis = fenceOffsetMillis;
        this.maxSkewMillis = maxSkewMillis;
        this.queryTimeoutSeconds = queryTimeoutSeconds;
        this.clock = clock;
    }

    String tableName() {
        return table.name;
    }

    String owner() {
        return owner;
    }

    /** One row of the lease table, with the local clock read just before and after the database's. */
    record Row(long machineId, String owner, long token, long nonce, long expiresMillis, long mark, long dbNowMillis,
            long localBefore, long localAfter) {
    }

    /** What a renewal found. */
    enum Outcome {
        /** Extended, with the new nonce: the row read back is ours. */
        RENEWED,
        /** Owner and token are ours but the nonce is not: another copy of this holder renewed first. */
        COPY,
        /** Another holder claimed the row (or it is gone). */
        TAKEN
    }

    /** What renewing found, with the row read back after the statement (null if it is gone). */
    record Renewal(Row row, Outcome outcome) {
        boolean ours() {
            return outcome == Outcome.RENEWED;
        }
    }

    /** {@return a fresh nonce for a claim or renewal, never {@code avoid}} */
    long newNonce(long avoid) {
        long n;
        do {
            n = nonces.nextLong();
        } while (n == avoid);
        return n;
    }

    /**
     * Claims the lowest free id up to {@code maxMachineId}: expired rows and missing ids, each by one
     * conditional statement.
     *
     * @return our row just after the claim
     * @throws MachineIdLeaseException if every id is live, or the race for the free ones was lost
     *     more often than {@link LeaseSettings#claimRounds(long)} allows
     */
    Row claimLowestFree(long maxMachineId) throws SQLException {
        try (Connection c = connection()) {
            long rounds = LeaseSettings.claimRounds(maxMachineId);
            for (long round = 0; round < rounds; round++) {
                List<Long> candidates = candidates(c, maxMachineId);
                if (candidates.isEmpty()) {
                    throw new MachineIdLeaseException("Every machine id 0.." + maxMachineId + " in table "
                            + table.name + " is held by a live lease; free one, or widen the space: raise"
                            + " maxMachineId (up to the layout's maxMachineId()) or use a layout with more"
                            + " machine-id bits (e.g. SnowflakeLayout.SONYFLAKE, 0..65535)");
                }
                for (long id : candidates) {
                    Row row = tryClaim(c, id);
                    if (row != null) {
                        return row;
                    }
                }
                // every candidate went to a faster claimer: look again
            }
            throw new MachineIdLeaseException("Lost the race for the free machine ids 0.." + maxMachineId
                    + " in table " + table.name + " " + rounds + " times over, each to another claimer; ids are"
                    + " freed as fast as others take them, try again");
        }
    }

    /**
     * Claims exactly {@code machineId} (a configured id): its row if expired, or a new row.
     *
     * @return our row just after the claim
     * @throws MachineIdLeaseException naming the holder and when its claim ends, if the row is live
     */
    Row claimExact(long machineId) throws SQLException {
        try (Connection c = connection()) {
            for (int attempt = 0; attempt < 3; attempt++) {
                Row row = tryClaim(c, machineId);
                if (row != null) {
                    return row;
                }
                Row holder = readRow(c, machineId);
                if (holder != null && holder.expiresMillis >= holder.dbNowMillis) {
                    throw new MachineIdLeaseException(heldBy(holder));
                }
                // the row expired (or went) between our claim and the read: try again
            }
            throw new MachineIdLeaseException("Lost the race for machine id " + machineId + " in table " + table.name
                    + " 3 times over to other claimers of the same id; several processes are starting with this id");
        }
    }

    private String heldBy(Row holder) {
        long left = holder.expiresMillis - holder.dbNowMillis;
        return "Machine id " + holder.machineId + " in table " + table.name + " is held by a live lease of owner '"
                + holder.owner + "' (token " + holder.token + ") until "
                + java.time.Instant.ofEpochMilli(holder.expiresMillis) + " by the database's clock (" + left
                + " ms from now): another process runs with this id. Give this process an id of its own, or stop"
                + " that one; if it has stopped already, the id is free once its claim has expired";
    }

    /**
     * Claims {@code machineId} again if its row has expired.
     *
     * @return our row just after the claim, or {@code null} if the row is live
     */
    Row reclaim(long machineId) throws SQLException {
        try (Connection c = connection()) {
            if (claimExpired(c, machineId) == 0) {
                return null;
            }
            return ours(readRow(c, machineId), null);
        }
    }

    /**
     * Extends our claim on {@code machineId} ({@code token}) by the TTL from the database's now,
     * records {@code mark} and writes {@code newNonce}, all only where the row still holds one of
     * the nonces this copy may have written last ({@code nonce}, or {@code orNonce} when a renewal
     * failed without an answer); then reads the row back.
     */
    Renewal renew(long machineId, long token, long nonce, long orNonce, long newNonce, long mark) throws SQLException {
        try (Connection c = connection()) {
            int n = update(c, table.renew, ttlMillis, mark, maxSkewMillis, newNonce, fenceOffsetMillis, machineId, owner,
                    token, nonce, orNonce);
            Row row = readRow(c, machineId);
            boolean ourClaim = row != null && owner.equals(row.owner) && row.token == token;
            if (n == 1 && ourClaim && row.nonce == newNonce) {
                return new Renewal(row, Outcome.RENEWED);
            }
            return new Renewal(row, ourClaim ? Outcome.COPY : Outcome.TAKEN);
        }
    }

    /**
     * Frees our claim now and records {@code mark} (see {@link LeaseTable} for a mark that ran
     * ahead); false if the row was no longer ours.
     */
    boolean release(long machineId, long token, long nonce, long orNonce, long mark) throws SQLException {
        long keepUntil = mark > Long.MAX_VALUE - fenceOffsetMillis - 1 ? Long.MAX_VALUE : mark + fenceOffsetMillis + 1;
        try (Connection c = connection()) {
            return update(c, table.release, mark, keepUntil, mark, maxSkewMillis, machineId, owner, token,
                    nonce, orNonce) == 1;
        }
    }

    private int claimExpired(Connection c, long machineId) throws SQLException {
        return update(c, table.claimExpired, maxSkewMillis, fenceOffsetMillis, owner, newNonce(0), fenceOffsetMillis,
                ttlMillis, machineId);
    }

    private Row ours(Row row, Long token) {
        return row != null && owner.equals(row.owner) && (token == null || row.token == token) ? row : null;
    }

    private Connection connection() throws SQLException {
        Connection c = dataSource.getConnection();
        try {
            c.setAutoCommit(true);
        } catch (SQLException e) {
            c.close();
            throw e;
        }
        return c;
    }

    /** Expired rows and missing ids, lowest first. The claim itself re-checks, so this may be stale. */
    private List<Long> candidates(Connection c, long maxMachineId) throws SQLException {
        TreeSet<Long> free = new TreeSet<>();
        TreeSet<Long> present = new TreeSet<>();
        try (PreparedStatement ps = c.prepareStatement(table.scan)) {
            ps.setQueryTimeout(queryTimeoutSeconds);
            ps.setLong(1, maxMachineId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    long id = rs.getLong(1);
                    present.add(id);
                    if (rs.getLong(2) < rs.getLong(3)) {
                        free.add(id);
                    }
                }
            }
        }
        for (long id = 0; id <= maxMachineId && free.size() < 64; id++) {
            if (!present.contains(id)) {
                free.add(id);
            }
        }
        return new ArrayList<>(free);
    }

    private Row tryClaim(Connection c, long id) throws SQLException {
        boolean won;
        if (claimExpired(c, id) == 1) {
            won = true;
        } else {
            try {
                won = update(c, table.insertNew, id, owner, newNonce(0), fenceOffsetMillis, ttlMillis) == 1;
            } catch (SQLException e) {
                if (!isDuplicateKey(e)) {
                    throw e;
                }
                won = false; // another claimer inserted it, or the row exists and is live
            }
        }
        return won ? ours(readRow(c, id), null) : null;
    }

    private Row readRow(Connection c, long machineId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(table.readRow)) {
            ps.setQueryTimeout(queryTimeoutSeconds);
            ps.setLong(1, machineId);
            long before = clock.millis();
            try (ResultSet rs = ps.executeQuery()) {
                long after = clock.millis();
                if (!rs.next()) {
                    return null;
                }
                return new Row(machineId, rs.getString(1), rs.getLong(2), rs.getLong(3), rs.getLong(4), rs.getLong(5),
                        rs.getLong(6), before, after);
            }
        }
    }

    private int update(Connection c, String sql, Object... args) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setQueryTimeout(queryTimeoutSeconds);
            for (int i = 0; i < args.length; i++) {
                ps.setObject(i + 1, args[i]);
            }
            return ps.executeUpdate();
        }
    }

    private static boolean isDuplicateKey(SQLException e) {
        for (SQLException x = e; x != null; x = x.getNextException()) {
            String s = x.getSQLState();
            if (s != null && s.startsWith("23")) {
                return true;
            }
        }
        return e instanceof SQLIntegrityConstraintViolationException;
    }
}
