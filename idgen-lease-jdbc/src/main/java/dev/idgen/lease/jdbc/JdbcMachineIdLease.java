package dev.idgen.lease.jdbc;

import dev.idgen.machine.MachineIdLease;
import dev.idgen.machine.spi.FencingLease;
import dev.idgen.machine.spi.LeaseMark;
import dev.idgen.machine.spi.MachineIdUser;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A machine id leased from a database table, for one generator.
 *
 * <pre>{@code
 * JdbcMachineIdLease lease = JdbcMachineIdLease.builder(dataSource)
 *         .table("idgen_machine_lease").createTable(true)
 *         .maxMachineId(SnowflakeLayout.TWITTER.maxMachineId())
 *         .acquire();
 * SnowflakeGenerator ids = SnowflakeGenerator.builder().machineId(lease).build();
 * ...
 * lease.close(); // records the high-water mark and frees the id
 * }</pre>
 *
 * <p><b>Claiming.</b> {@link Builder#acquire()} claims the lowest id whose row has expired by the
 * database's clock, or that has no row yet, with one conditional {@code UPDATE ... WHERE
 * expires_ms < now} or a plain {@code INSERT} (a primary-key violation means another claimer won).
 * Reading the table first only picks candidates; the conditional write alone decides, so racing
 * claimers cannot both win. Each claim adds one to the row's {@code token}, and only the holder with
 * the current owner and token can renew or release the row.
 *
 * <p><b>Fencing.</b> Every renewal sets {@code expires_ms = db_now + ttl}. Before sending it the
 * holder reads its local monotonic clock ({@code t0}); the database reads its clock after that, so
 * the row cannot expire before {@code t0 + ttl} of local time (for clocks that run at the same rate).
 * The holder fences its generator ({@link #isHeld()} false) at {@code t0 + ttl - safetyMargin},
 * from a watchdog thread of its own that a hanging database call cannot block. The margin covers
 * the watchdog's scheduling delay, the rate difference of the two clocks over one TTL, and a thread
 * that passed the {@code isHeld()} check just before the fence.
 *
 * <p><b>High-water mark.</b> Each renewal and the release record the generator's
 * {@link MachineIdUser#highWaterMark()} in the row (never lowering it); a new holder reads it on
 * claiming and its generator starts above it. When a renewal finds the row intact after a fence
 * (the database was unreachable but nobody took the id) the lease is held again; when another holder
 * has taken it, the lease tries to claim the same id again once that one expires, raising the
 * generator's mark to the row's before it reports the id held.
 *
 * <p><b>Clock skew.</b> On claiming and on every renewal the local wall clock (the generator's
 * clock; see {@link Builder#clock(InstantSource)}) is compared with the database's; the last
 * difference is {@link #clockSkew()}. Beyond {@link Builder#maxClockSkew(Duration)} a claim fails
 * and a held lease is fenced until the clocks agree again.
 */
public final class JdbcMachineIdLease implements FencingLease, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(JdbcMachineIdLease.class);

    private final DataSource dataSource;
    private final LeaseTable table;
    private final long machineId;
    private final String owner;
    private final long ttlMillis;
    private final long ttlNanos;
    private final long marginNanos;
    private final long maxSkewMillis;
    private final int queryTimeoutSeconds;
    private final InstantSource clock;
    private final LongSupplier nanoTime;
    private final boolean strictDeadline;
    private final Object lock = new Object();
    /** Guards the (deadline, held) pair; held only for a few field writes, never across I/O. */
    private final Object fenceLock = new Object();

    /** The fencing token of our claim on the row; changes only when we claim the row again. */
    private volatile long token;
    /** What generators read on every ID. Set true only after the mark of the row is applied. */
    private volatile boolean held;
    /** Local monotonic time at which the lease fences itself unless renewed. */
    private volatile long deadlineNanos;
    private final LeaseMark highWater;
    private volatile long skewMillis;
    private volatile String state;
    private volatile boolean closed;
    private ScheduledExecutorService renewer;
    private ScheduledExecutorService watchdog;

    private JdbcMachineIdLease(Builder b, long machineId, Claim claim, long t0) {
        this.dataSource = b.dataSource;
        this.table = b.leaseTable;
        this.machineId = machineId;
        this.owner = b.owner;
        this.ttlMillis = b.ttl.toMillis();
        this.ttlNanos = b.ttl.toNanos();
        this.marginNanos = b.safetyMargin.toNanos();
        this.maxSkewMillis = b.maxClockSkew.toMillis();
        this.queryTimeoutSeconds = b.queryTimeoutSeconds();
        this.clock = b.clock;
        this.nanoTime = b.nanoTime;
        this.strictDeadline = b.strictDeadline;
        this.token = claim.token;
        this.highWater = new LeaseMark("machine id " + machineId + " in table " + table.name, claim.mark);
        this.skewMillis = claim.skewMillis;
        this.deadlineNanos = t0 + ttlNanos - marginNanos;
        this.state = "held";
        this.held = true;
        highWater.fenceFrom(Long.MAX_VALUE); // interim: the fence follows the held flag
    }

    /**
     * A builder for leases on the table behind {@code dataSource}. The lease takes a connection for
     * each statement and closes it at once, so give it a pool.
     *
     * @param dataSource where the lease table lives
     * @return a new builder
     */
    public static Builder builder(DataSource dataSource) {
        return new Builder(dataSource);
    }

    @Override
    public long machineId() {
        return machineId;
    }

    @Override
    public boolean isHeld() {
        if (strictDeadline) {
            // one monotonic clock read per ID: right even when the watchdog has not run yet
            return held && nanoTime.getAsLong() - deadlineNanos < 0;
        }
        return held;
    }

    @Override
    public long highWaterMark() {
        return highWater.millis();
    }

    @Override
    public void attach(MachineIdUser generator) {
        highWater.attach(generator);
    }

    /**
     * @return the owner string written in the row: host, process id and a random suffix
     */
    public String owner() {
        return owner;
    }

    /**
     * @return the fencing token of the current claim; each claim of a row adds one
     */
    public long token() {
        return token;
    }

    /**
     * The database clock minus the local clock, as last measured (positive: the database is ahead).
     *
     * @return the skew
     */
    public Duration clockSkew() {
        return Duration.ofMillis(skewMillis);
    }

    /**
     * @return the local {@code System.nanoTime}-scale instant at which the lease fences itself
     *     unless a renewal succeeds first
     */
    public long fenceDeadlineNanos() {
        return deadlineNanos;
    }

    /**
     * Renews now, off schedule: extends the row, records the generator's mark and re-checks the
     * clock skew. A lease fenced for want of renewal is held again when the row is still its own; a
     * lease whose row another holder took tries to claim the same id again.
     *
     * @return whether the lease is held afterwards
     */
    public boolean renewNow() {
        synchronized (lock) {
            if (closed) {
                return false;
            }
            long t0 = nanoTime.getAsLong();
            long mark = highWater.toRecord();
            try (Connection c = dataSource.getConnection()) {
                c.setAutoCommit(true);
                int updated = update(c, table.renew, ttlMillis, mark, mark, machineId, owner, token);
                if (updated == 0) {
                    fence("the row of machine id " + machineId + " was taken over by another holder");
                    return reclaim(c, t0);
                }
                Row row = readRow(c);
                if (row == null || !owner.equals(row.owner) || row.token != token) {
                    fence("the row of machine id " + machineId + " changed under us");
                    return false;
                }
                return confirm(row, t0);
            } catch (SQLException e) {
                LOG.warn("Renewing machine id {} in table {} failed (fencing at the deadline unless a renewal"
                        + " succeeds first): {}", machineId, table.name, e.toString());
                return held;
            }
        }
    }

    /**
     * Fences the generator if the local monotonic clock has reached the deadline. The watchdog calls
     * this at the deadline; tests with an injected clock call it directly.
     *
     * @return whether the lease is held afterwards
     */
    boolean enforceDeadline() {
        synchronized (fenceLock) {
            if (held && nanoTime.getAsLong() - deadlineNanos >= 0) {
                fence("no renewal succeeded within the TTL minus the safety margin");
            }
            return held;
        }
    }

    /**
     * Fences the generator, records its high-water mark and frees the id for the next holder.
     * Stop making IDs before calling it: a call that passed the lease check just before may still
     * finish with an ID. A failed release only leaves the id to expire.
     */
    @Override
    public void close() {
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
            state = "released";
            held = false;
            highWater.fenceFrom(Long.MIN_VALUE); // interim: the fence follows the held flag
        }
        if (renewer != null) {
            renewer.shutdownNow();
            watchdog.shutdownNow();
        }
        long mark = highWater.toRecord();
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(true);
            int n = update(c, table.release, mark, mark, machineId, owner, token);
            LOG.info("Released machine id {} in table {} (high-water mark {}{})", machineId, table.name, mark,
                    n == 1 ? "" : "; the row was no longer ours");
        } catch (SQLException e) {
            LOG.warn("Releasing machine id {} in table {} failed; it frees itself when the lease expires: {}",
                    machineId, table.name, e.toString());
        }
    }

    @Override
    public String toString() {
        return "JDBC lease on machine id " + machineId + " in table " + table.name + " by " + owner + ", token "
                + token + ", " + state;
    }

    private void fence(String why) {
        if (held || !("fenced: " + why).equals(state)) {
            LOG.warn("Machine id {} in table {} is fenced: {}", machineId, table.name, why);
        }
        state = "fenced: " + why;
        held = false;
        highWater.fenceFrom(Long.MIN_VALUE); // interim: the fence follows the held flag
    }

    /** The row is ours and renewed as of {@code t0}: check the skew, adopt its mark, hold again. */
    private boolean confirm(Row row, long t0) {
        skewMillis = row.skewMillis;
        if (Math.abs(row.skewMillis) > maxSkewMillis) {
            fence("the local clock is " + row.skewMillis + " ms from the database's, beyond the allowed "
                    + maxSkewMillis + " ms");
            return false;
        }
        highWater.raiseTo(row.mark);
        highWater.applyToGenerator(); // before held turns true: no ID at or below the mark
        synchronized (fenceLock) {
            deadlineNanos = t0 + ttlNanos - marginNanos;
            if (!held) {
                LOG.info("Machine id {} in table {} is held again (token {})", machineId, table.name, token);
            }
            state = "held";
            held = true;
            highWater.fenceFrom(Long.MAX_VALUE); // interim: the fence follows the held flag
        }
        scheduleWatchdog();
        return true;
    }

    /** Another holder took our row: claim the same id again if it has expired since. */
    private boolean reclaim(Connection c, long t0) throws SQLException {
        if (update(c, table.claimExpired, owner, ttlMillis, machineId) == 0) {
            return false;
        }
        Row row = readRow(c);
        if (row == null || !owner.equals(row.owner)) {
            return false;
        }
        token = row.token;
        LOG.info("Claimed machine id {} in table {} again (token {}, high-water mark {})", machineId, table.name,
                token, row.mark);
        return confirm(row, t0);
    }

    private Row readRow(Connection c) throws SQLException {
        return readRow(c, table, machineId, clock, queryTimeoutSeconds);
    }

    private void startBackground(Duration renewEvery) {
        String name = "idgen-lease-jdbc-" + table.name + "-" + machineId;
        renewer = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, name + "-renew"));
        watchdog = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, name + "-watchdog"));
        long every = renewEvery.toNanos();
        renewer.scheduleWithFixedDelay(this::renewQuietly, every, every, TimeUnit.NANOSECONDS);
        scheduleWatchdog();
    }

    private void renewQuietly() {
        try {
            renewNow();
        } catch (RuntimeException e) {
            LOG.warn("Renewal of machine id {} in table {} failed", machineId, table.name, e);
        }
    }

    private void scheduleWatchdog() {
        ScheduledExecutorService w = watchdog;
        if (w != null && !w.isShutdown()) {
            long delay = Math.max(0, deadlineNanos - nanoTime.getAsLong());
            w.schedule(this::enforceDeadline, delay, TimeUnit.NANOSECONDS);
        }
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    private int update(Connection c, String sql, Object... args) throws SQLException {
        return update(c, queryTimeoutSeconds, sql, args);
    }

    private static int update(Connection c, int timeoutSeconds, String sql, Object... args) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setQueryTimeout(timeoutSeconds);
            for (int i = 0; i < args.length; i++) {
                ps.setObject(i + 1, args[i]);
            }
            return ps.executeUpdate();
        }
    }

    private static Row readRow(Connection c, LeaseTable table, long machineId, InstantSource clock, int timeout)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(table.readRow)) {
            ps.setQueryTimeout(timeout);
            ps.setLong(1, machineId);
            long before = clock.millis();
            try (ResultSet rs = ps.executeQuery()) {
                long after = clock.millis();
                if (!rs.next()) {
                    return null;
                }
                long dbNow = rs.getLong(5);
                return new Row(rs.getString(1), rs.getLong(2), rs.getLong(3), rs.getLong(4),
                        dbNow - (before + (after - before) / 2));
            }
        }
    }

    /** One row of the lease table, with the skew measured while reading it. */
    private record Row(String owner, long token, long expiresMillis, long mark, long skewMillis) {
    }

    /** What a successful claim found in the row. */
    private record Claim(long token, long mark, long skewMillis) {
    }

    /** Configures and acquires a {@link JdbcMachineIdLease}. Not thread-safe. */
    public static final class Builder {
        private final DataSource dataSource;
        private String table = "idgen_machine_lease";
        private SqlDialect dialect;
        private boolean createTable;
        private long maxMachineId = 1023;
        private Duration ttl = Duration.ofSeconds(30);
        private Duration renewEvery;
        private Duration safetyMargin;
        private Duration maxClockSkew = Duration.ofSeconds(1);
        private InstantSource clock = InstantSource.system();
        private LongSupplier nanoTime = System::nanoTime;
        private boolean background = true;
        private boolean strictDeadline;
        private String owner = defaultOwner();
        private LeaseTable leaseTable;

        private Builder(DataSource dataSource) {
            this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        }

        /**
         * @param table the lease table, a plain identifier, optionally {@code schema.table}; default
         *     {@code idgen_machine_lease}
         * @return this builder
         */
        public Builder table(String table) {
            this.table = LeaseTable.checkName(table);
            return this;
        }

        /**
         * @param dialect the SQL dialect; default: detected from the connection's metadata
         * @return this builder
         */
        public Builder dialect(SqlDialect dialect) {
            this.dialect = Objects.requireNonNull(dialect, "dialect");
            return this;
        }

        /**
         * @param create run the shipped {@code CREATE TABLE IF NOT EXISTS} before claiming; default
         *     {@code false} (the table is expected to exist)
         * @return this builder
         */
        public Builder createTable(boolean create) {
            this.createTable = create;
            return this;
        }

        /**
         * @param maxMachineId the largest id to claim, e.g. {@code layout.maxMachineId()}; default 1023
         * @return this builder
         */
        public Builder maxMachineId(long maxMachineId) {
            if (maxMachineId < 0 || maxMachineId > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("maxMachineId " + maxMachineId + " is outside 0.." + Integer.MAX_VALUE);
            }
            this.maxMachineId = maxMachineId;
            return this;
        }

        /**
         * @param ttl how long a claim or renewal lasts by the database's clock; default 30 s, at
         *     least 100 ms
         * @return this builder
         */
        public Builder ttl(Duration ttl) {
            this.ttl = Objects.requireNonNull(ttl, "ttl");
            return this;
        }

        /**
         * @param renewEvery the pause between renewals; default a third of the TTL
         * @return this builder
         */
        public Builder renewEvery(Duration renewEvery) {
            this.renewEvery = Objects.requireNonNull(renewEvery, "renewEvery");
            return this;
        }

        /**
         * @param margin how long before the database could expire the row the generator is fenced;
         *     default a sixth of the TTL
         * @return this builder
         */
        public Builder safetyMargin(Duration margin) {
            this.safetyMargin = Objects.requireNonNull(margin, "margin");
            return this;
        }

        /**
         * @param max the largest difference allowed between the local and the database clock;
         *     default 1 s
         * @return this builder
         */
        public Builder maxClockSkew(Duration max) {
            this.maxClockSkew = Objects.requireNonNull(max, "max");
            return this;
        }

        /**
         * @param clock the local wall clock compared with the database's: the generator's clock;
         *     default the system clock
         * @return this builder
         */
        public Builder clock(InstantSource clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * @param nanoTime the local monotonic clock the fence deadline is kept on; default
         *     {@code System::nanoTime}
         * @return this builder
         */
        public Builder nanoTime(LongSupplier nanoTime) {
            this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
            return this;
        }

        /**
         * @param owner the holder's name written in the row; default host, process id and a random
         *     suffix
         * @return this builder
         */
        public Builder owner(String owner) {
            Objects.requireNonNull(owner, "owner");
            if (owner.isBlank() || owner.length() > 255) {
                throw new IllegalArgumentException("owner must be 1 to 255 characters, not blank");
            }
            this.owner = owner;
            return this;
        }

        /**
         * Also compare the local monotonic clock with the fence deadline on every
         * {@link JdbcMachineIdLease#isHeld()}, not only in the watchdog. That closes the moment after
         * a long pause (a stop-the-world collection, a suspended VM) in which the watchdog has not run
         * yet, at the price of one {@code System.nanoTime()} read per ID.
         *
         * @param strict default {@code false}
         * @return this builder
         */
        public Builder strictDeadline(boolean strict) {
            this.strictDeadline = strict;
            return this;
        }

        /**
         * Whether the lease renews itself and runs its fence watchdog on threads of its own. Without
         * them the caller renews ({@link JdbcMachineIdLease#renewNow()}); for tests.
         *
         * @param background default {@code true}
         * @return this builder
         */
        Builder background(boolean background) {
            this.background = background;
            return this;
        }

        /**
         * Runs the shipped DDL for the table and the database's dialect ({@code CREATE TABLE IF NOT
         * EXISTS}).
         *
         * @throws MachineIdLeaseException if the database refuses
         */
        public void createTableNow() {
            try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
                st.execute(dialectOf(c).createTable(table));
            } catch (SQLException e) {
                throw new MachineIdLeaseException("Could not create lease table " + table + ": " + e.getMessage(), e);
            }
        }

        /**
         * Claims the lowest free machine id and returns the lease on it, renewing in the background.
         *
         * @return the lease, held
         * @throws MachineIdLeaseException if every id is held, the table is missing or the database
         *     unreachable, or the clocks differ by more than {@link #maxClockSkew(Duration)}
         * @throws IllegalArgumentException if the timings do not fit together
         */
        public JdbcMachineIdLease acquire() {
            Duration renew = renewEvery != null ? renewEvery : ttl.dividedBy(3);
            Duration margin = safetyMargin != null ? safetyMargin : ttl.dividedBy(6);
            if (ttl.toMillis() < 100 || margin.isNegative() || margin.isZero() || margin.compareTo(ttl) >= 0
                    || renew.isNegative() || renew.isZero() || renew.compareTo(ttl.minus(margin)) >= 0
                    || maxClockSkew.isNegative()) {
                throw new IllegalArgumentException("Lease timings do not fit: ttl " + ttl.toMillis()
                        + " ms (at least 100), renewEvery " + renew.toMillis() + " ms and safetyMargin "
                        + margin.toMillis() + " ms must be positive with renewEvery < ttl - safetyMargin");
            }
            this.renewEvery = renew;
            this.safetyMargin = margin;
            if (createTable) {
                createTableNow();
            }
            try (Connection c = dataSource.getConnection()) {
                c.setAutoCommit(true);
                leaseTable = new LeaseTable(table, dialectOf(c));
                for (int round = 0; round < 8; round++) {
                    List<Long> candidates = candidates(c);
                    if (candidates.isEmpty()) {
                        throw new MachineIdLeaseException("Every machine id 0.." + maxMachineId + " in table "
                                + table + " is held by a live lease; free one or widen the range");
                    }
                    for (long id : candidates) {
                        JdbcMachineIdLease lease = tryClaim(c, id);
                        if (lease != null) {
                            return lease;
                        }
                    }
                    // every candidate went to a faster claimer: look again
                }
                throw new MachineIdLeaseException("Lost the race for every free machine id in table " + table
                        + " eight times over; too many claimers at once, try again");
            } catch (SQLException e) {
                throw new MachineIdLeaseException("Could not claim a machine id in table " + table
                        + " (create it with createTable(true) or the shipped DDL): " + e.getMessage(), e);
            }
        }

        int queryTimeoutSeconds() {
            return (int) Math.max(1, (renewEvery.toMillis() + 999) / 1000);
        }

        private SqlDialect dialectOf(Connection c) throws SQLException {
            return dialect != null ? dialect : SqlDialect.of(c.getMetaData().getDatabaseProductName());
        }

        /** Expired rows and missing ids, lowest first. The claim itself re-checks, so this may be stale. */
        private List<Long> candidates(Connection c) throws SQLException {
            TreeSet<Long> free = new TreeSet<>();
            TreeSet<Long> present = new TreeSet<>();
            try (PreparedStatement ps = c.prepareStatement(leaseTable.scan)) {
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

        private JdbcMachineIdLease tryClaim(Connection c, long id) throws SQLException {
            long t0 = nanoTime.getAsLong();
            boolean won;
            if (update(c, queryTimeoutSeconds(), leaseTable.claimExpired, owner, ttl.toMillis(), id) == 1) {
                won = true;
            } else {
                try {
                    won = update(c, queryTimeoutSeconds(), leaseTable.insertNew, id, owner, ttl.toMillis()) == 1;
                } catch (SQLException e) {
                    if (!isDuplicateKey(e)) {
                        throw e;
                    }
                    won = false; // another claimer inserted it, or the row exists and is live
                }
            }
            if (!won) {
                return null;
            }
            Row row = readRow(c, leaseTable, id, clock, queryTimeoutSeconds());
            if (row == null || !owner.equals(row.owner)) {
                return null;
            }
            Claim claim = new Claim(row.token, row.mark, row.skewMillis);
            JdbcMachineIdLease lease = new JdbcMachineIdLease(this, id, claim, t0);
            if (Math.abs(row.skewMillis) > maxClockSkew.toMillis()) {
                lease.close();
                throw new MachineIdLeaseException("The local clock is " + row.skewMillis
                        + " ms from the database's (table " + table + "), beyond the allowed "
                        + maxClockSkew.toMillis() + " ms; fix the clock (NTP) before claiming a machine id");
            }
            LOG.info("Claimed machine id {} in table {} (token {}, high-water mark {}, clock skew {} ms)", id,
                    table, row.token, row.mark, row.skewMillis);
            if (background) {
                lease.startBackground(renewEvery);
            }
            return lease;
        }

        private static boolean isDuplicateKey(SQLException e) {
            for (SQLException x = e; x != null; x = x.getNextException()) {
                String s = x.getSQLState();
                if (s != null && s.startsWith("23")) {
                    return true;
                }
            }
            return e instanceof java.sql.SQLIntegrityConstraintViolationException;
        }

        private static String defaultOwner() {
            String host = System.getenv("HOSTNAME");
            if (host == null || host.isBlank()) {
                host = "host";
            }
            return host + "/" + ProcessHandle.current().pid() + "/"
                    + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 16);
        }
    }
}
