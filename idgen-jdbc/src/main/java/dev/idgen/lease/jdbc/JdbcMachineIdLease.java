package dev.idgen.lease.jdbc;

import dev.idgen.machine.MachineIdLeaseException;
import dev.idgen.machine.spi.GuardedLease;
import dev.idgen.machine.spi.IncarnationWatch;
import dev.idgen.machine.spi.LeaseGuard;
import dev.idgen.machine.spi.LeaseSettings;
import dev.idgen.machine.spi.LeaseTimings;
import dev.idgen.machine.spi.MachineIdUser;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
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
 * Each claim adds one to the row's {@code token}; only the holder with the current owner and token
 * can renew or release the row. {@link Builder#machineId(long)} claims one given id instead, and
 * fails naming the live holder when there is one. The claim raises the row's mark above the fence the expiry it
 * replaces allowed, so the new holder starts above every ID the earlier one could make.
 *
 * <p><b>Fencing by time.</b> Every renewal sets {@code expires_ms = db_now + ttl} and reads it
 * back. The generator refuses every ID whose own time reaches {@code E - maxClockSkew -
 * safetyMargin}, where {@code E} is the older of the last two expiries read back: the database
 * gives the id to someone else only once its clock passes {@code E}, and that holder's clock then
 * reads at least {@code E - maxClockSkew}. The generator compares each ID's time with the fence
 * after it took the ID, so the fence holds with no thread running: a process paused past it, a
 * clock stepped forward, a run-ahead ID, are all refused by their own time. Using the older expiry
 * keeps the fence good when the database fails over to a replica that lacks the last renewal. See
 * {@code docs/lease-safety.md}.
 *
 * <p><b>High-water mark.</b> Each renewal and the release record the generator's
 * {@link MachineIdUser#highWaterMark()} in the row (never lowering it); a new holder reads it on
 * claiming and its generator starts above it. A renewal that finds the row still its own after a
 * lapse opens the fence again (with the next renewal: two acknowledged writes); when another holder
 * has taken it, the lease claims its own id again if free, else the lowest free id
 * ({@link Builder#reclaimAnyId(boolean)}), and the same generator carries on under it.
 *
 * <p><b>Copies of one process.</b> Every claim and renewal writes a fresh random {@code nonce}, and
 * a renewal matches the nonce this copy wrote last: of two copies of one restored image, the first
 * to renew keeps the row and the other claims as a new holder. A new process id, a wall-clock jump
 * or {@link #afterRestore()} shuts the fence until two renewals made since; the one that proves the
 * claim raises the mark to the highest fence the claim had, above every ID another copy can make.
 * Each write also records the writer's {@code fence_offset_ms} (skew bound plus margin), so a
 * claimer with other settings still starts above the old holder's fence.
 *
 * <p><b>Clock skew.</b> On claiming and on every renewal the local wall clock (the generator's
 * clock; see {@link Builder#clock(InstantSource)}) is compared with the database's; the last
 * difference is {@link #clockSkew()}. Beyond {@link Builder#maxClockSkew(Duration)} (plus the
 * reading's uncertainty) a claim fails and a held lease is fenced at once.
 */
public final class JdbcMachineIdLease extends GuardedLease {

    private static final Logger LOG = LoggerFactory.getLogger(JdbcMachineIdLease.class);
    private static final long NONE = Long.MIN_VALUE;

    private final JdbcLeaseProtocol protocol;
    private final InstantSource clock;
    private final long maxMachineId;
    private final boolean reclaimAnyId;
    /** Renewals, claims and release run under this lock, one at a time. */
    private final Object lock = new Object();
    /** The id of the row we hold a claim on (the guard switches to it once the claim is taken). */
    private volatile long rowId;
    /** The fencing token of our claim on the row; changes only when we claim a row again. */
    private volatile long token;
    /**
     * The nonce this copy wrote last and saw acknowledged, and the one it tried to write since
     * without an answer (equal when every write was answered): the row holds one of the two unless
     * another copy of this process image renewed in between.
     */
    private long nonce;
    private long pendingNonce;
    /** This claim's last two acknowledged expiries, for {@link #copyOfImage()}; NONE when absent. */
    private long previousExpiry = NONE;
    private long lastExpiry = NONE;
    /** The highest fence this claim opened: no copy of this process image made an ID at or past it. */
    private long highestFence = NONE;
    /**
     * Set by a restore signal to the highest fence of the claim: the renewal that proves this copy
     * still holds the claim raises the mark to just below it, so this copy makes no ID another copy
     * (still fenced by the shared state until its renewal fails) can make. NONE otherwise.
     */
    private long restoredBelow = NONE;
    /** Set when a claim was given back because the generator had no room for its id: claim anew. */
    private boolean gaveBack;
    private ScheduledExecutorService renewer;

    private JdbcMachineIdLease(JdbcLeaseProtocol protocol, LeaseTimings timings, InstantSource clock,
            long firstId, long maxMachineId, boolean reclaimAnyId) {
        super(firstId, LeaseGuard.named("in table " + protocol.tableName(), timings, clock));
        this.protocol = protocol;
        this.clock = clock;
        this.maxMachineId = maxMachineId;
        this.reclaimAnyId = reclaimAnyId;
        this.rowId = firstId;
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

    /**
     * {@return whether this lease, once another holder took its id, claims any free id
     * ({@link Builder#reclaimAnyId(boolean)}) rather than waiting for its own; false for an exact
     * id ({@link Builder#machineId(long)})}
     */
    public boolean reclaimsAnyId() {
        return reclaimAnyId;
    }

    /** {@return the owner string written in the row: host, process id and a random suffix by default} */
    public String owner() {
        return protocol.owner();
    }

    /** {@return the fencing token of the current claim; each claim of a row adds one} */
    public long token() {
        return token;
    }

    /** {@return the database clock minus the local clock, as last measured (positive: the database is ahead)} */
    public Duration clockSkew() {
        return Duration.ofMillis(guard().skewMillis());
    }

    /**
     * Renews now, off schedule: extends the row, rotates its nonce, records the generator's mark and
     * re-checks the clock skew and this process's incarnation. A lease whose row another holder
     * took, or another copy of this process renewed first, claims again: its own id if free, else
     * (unless {@link Builder#reclaimAnyId(boolean)} is off) the lowest free id.
     *
     * @return whether the lease is held afterwards
     */
    public boolean renewNow() {
        synchronized (lock) {
            if (guard().isReleased()) {
                return false;
            }
            if (!guard().checkIncarnation()) {
                noteRestore();
            }
            try {
                if (gaveBack) {
                    return recover();
                }
                long next = protocol.newNonce(nonce);
                JdbcLeaseProtocol.Renewal r;
                try {
                    r = protocol.renew(rowId, token, nonce, pendingNonce, next, guard().markToRecord());
                } catch (SQLException e) {
                    pendingNonce = next; // the write may have landed: accept either nonce next time
                    throw e;
                }
                switch (r.outcome()) {
                    case RENEWED -> {
                        nonce = next;
                        pendingNonce = next;
                        acknowledge(r.row());
                    }
                    case COPY -> {
                        guard().lost("another copy of this process image renewed the lease first (the row's nonce is"
                                + " not the one this copy wrote); claiming as a new holder");
                        return recover();
                    }
                    default -> {
                        guard().lost("the row was taken over by another holder");
                        return recover();
                    }
                }
            } catch (SQLException e) {
                LOG.warn("Renewing machine id {} in table {} failed (the fence stays where the last renewals put it):"
                        + " {}", rowId, protocol.tableName(), e.toString());
            }
            return guard().isHeld();
        }
    }

    /**
     * Shuts the fence at once (this process may be a copy of another: a restored checkpoint or
     * snapshot), then renews twice on the lease's renewal thread: a copy that still holds the row
     * opens again, one that finds another copy renewed first claims as a new holder. Without the
     * background thread ({@code background(false)}) the caller renews with {@link #renewNow()}.
     */
    @Override
    public void afterRestore() {
        synchronized (lock) {
            noteRestore();
            super.afterRestore();
        }
        ScheduledExecutorService r = renewer;
        if (r != null && !r.isShutdown()) {
            r.execute(() -> {
                renewQuietly();
                renewQuietly();
            });
        }
    }

    /**
     * Fences the generator, records its high-water mark and frees the id for the next holder. An ID
     * whose (tick, sequence) a thread took before the fence shut is in the recorded mark; any later
     * call is refused. A failed release only leaves the id to expire.
     */
    @Override
    public void close() {
        long mark;
        synchronized (lock) {
            if (guard().isReleased()) {
                return;
            }
            mark = guard().release(); // fence first, then read the mark: nothing slips between
        }
        if (renewer != null) {
            renewer.shutdownNow();
        }
        try {
            boolean ours = protocol.release(rowId, token, nonce, pendingNonce, mark);
            LOG.info("Released machine id {} in table {} (high-water mark {}{})", rowId, protocol.tableName(),
                    LeaseGuard.markText(mark),
                    ours ? "" : "; the row was no longer ours");
        } catch (SQLException e) {
            LOG.warn("Releasing machine id {} in table {} failed; it frees itself when the lease expires: {}",
                    rowId, protocol.tableName(), e.toString());
        }
    }

    @Override
    public String toString() {
        return "JDBC lease on machine id " + machineId() + " in table " + protocol.tableName() + " by "
                + protocol.owner() + ", token " + token + ", " + guard().state();
    }

    /**
     * For tests: a second lease that is what a copy of this process image restored from a snapshot
     * would hold: the same owner, row, token, nonces, acknowledged expiries and mark, with no
     * renewal thread and no generator yet (attach one: it starts at this lease's mark). The copy
     * sees no restore signal unless the test gives it one.
     *
     * @throws IllegalStateException if this lease is not held (a fenced image copies a fenced lease)
     */
    JdbcMachineIdLease copyOfImage() {
        synchronized (lock) {
            if (!isHeld() || previousExpiry == NONE) {
                throw new IllegalStateException("copy a held lease: " + this);
            }
            JdbcMachineIdLease copy = new JdbcMachineIdLease(protocol, timings(), clock, rowId, maxMachineId,
                    reclaimAnyId);
            long mark = guard().markToRecord();
            copy.token = token;
            copy.nonce = nonce;
            copy.pendingNonce = pendingNonce;
            copy.guard().claimed(rowId, previousExpiry, mark);
            copy.guard().acknowledged(lastExpiry, mark);
            copy.previousExpiry = previousExpiry;
            copy.lastExpiry = lastExpiry;
            copy.highestFence = highestFence;
            return copy;
        }
    }

    /** For tests: replaces what {@link LeaseGuard#checkIncarnation()} asks (a fake process id). */
    void watchIncarnation(IncarnationWatch watch) {
        guard().watchIncarnation(watch);
    }

    /** Caller holds the lock. */
    private void noteRestore() {
        restoredBelow = Math.max(highestFence, guard().fenceMillis());
    }

    /**
     * A fresh claim (ours in {@code row}, possibly of another id than before): move the guard and
     * the generator to it, check the skew, renew once to open the fence. Caller holds the lock (or
     * is the builder, before anyone else sees the lease).
     */
    private boolean takeClaim(JdbcLeaseProtocol.Row row) throws SQLException {
        rowId = row.machineId();
        token = row.token();
        nonce = row.nonce();
        pendingNonce = row.nonce();
        gaveBack = false;
        previousExpiry = NONE;
        lastExpiry = row.expiresMillis();
        highestFence = NONE;
        restoredBelow = NONE;
        long before = machineId();
        try {
            guard().claimed(row.machineId(), row.expiresMillis(), row.mark());
        } catch (IllegalArgumentException e) {
            LOG.error("Claimed machine id {} in table {} but the generator cannot take it ({}); giving it back and"
                    + " staying fenced on machine id {}: set maxMachineId to the layout's maxMachineId()", row.machineId(),
                    protocol.tableName(), e.getMessage(), before);
            gaveBack = true; // the row is no longer ours to renew, even though owner and token match
            protocol.release(row.machineId(), token, nonce, pendingNonce, row.mark());
            return false;
        }
        if (!guard().acceptSkew(row.dbNowMillis(), row.localBefore(), row.localAfter())) {
            return false;
        }
        long next = protocol.newNonce(nonce);
        JdbcLeaseProtocol.Renewal r = protocol.renew(rowId, token, nonce, pendingNonce, next, guard().markToRecord());
        if (!r.ours()) {
            guard().lost("the row of machine id " + rowId + " was taken over right after the claim");
            return false;
        }
        nonce = next;
        pendingNonce = next;
        acknowledge(r.row());
        return guard().isHeld();
    }

    private void acknowledge(JdbcLeaseProtocol.Row row) {
        if (!guard().acceptSkew(row.dbNowMillis(), row.localBefore(), row.localAfter())) {
            return;
        }
        long mark = row.mark();
        if (restoredBelow != NONE) {
            // this copy proved it holds the row; every other copy stays below the fence it had
            mark = Math.max(mark, restoredBelow - 1);
            restoredBelow = NONE;
        }
        previousExpiry = lastExpiry;
        lastExpiry = row.expiresMillis();
        guard().acknowledged(row.expiresMillis(), mark);
        highestFence = Math.max(highestFence, guard().fenceMillis());
    }

    /**
     * The row is no longer ours: claim our own id again if it is free, else (with reclaimAnyId) the
     * lowest free id, and confirm it with a renewal. The claim statement starts the mark above the
     * old holder's fence. Caller holds the lock.
     */
    private boolean recover() throws SQLException {
        long own = rowId;
        JdbcLeaseProtocol.Row row = protocol.reclaim(own);
        if (row == null && reclaimAnyId) {
            try {
                row = protocol.claimLowestFree(maxMachineId);
            } catch (MachineIdLeaseException e) {
                LOG.warn("Machine id {} in table {} is held by another holder and no other id is free; fenced until one"
                        + " is: {}", own, protocol.tableName(), e.getMessage());
                return false;
            }
        }
        if (row == null) {
            return false;
        }
        LOG.info("Claimed machine id {} in table {} after machine id {} was lost (token {}, high-water mark {})",
                row.machineId(), protocol.tableName(), own, row.token(), LeaseGuard.markText(row.mark()));
        return takeClaim(row);
    }

    private void startBackground(Duration renewEvery) {
        String name = "idgen-jdbc-" + protocol.tableName() + "-" + machineId() + "-renew";
        renewer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
        long every = renewEvery.toNanos();
        renewer.scheduleWithFixedDelay(this::renewQuietly, every, every, TimeUnit.NANOSECONDS);
    }

    private void renewQuietly() {
        try {
            renewNow();
        } catch (RuntimeException e) {
            LOG.warn("Renewal of machine id {} in table {} failed", machineId(), protocol.tableName(), e);
        }
    }

    /**
     * Configures and acquires a {@link JdbcMachineIdLease}. Holds configuration only; the claim is
     * the protocol's. Not thread-safe.
     */
    public static final class Builder {
        private final DataSource dataSource;
        private String table = "idgen_machine_lease";
        private SqlDialect dialect;
        private boolean createTable;
        /** The one id to claim, or -1: claim the lowest free id. */
        private long exactId = -1;
        private final LeaseSettings settings = new LeaseSettings(Duration.ofSeconds(30), 1023);

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
            settings.maxMachineId(maxMachineId);
            return this;
        }

        /**
         * Claims exactly this id rather than the lowest free one: for an id given by configuration
         * ({@code fixed}, an environment variable, a pod ordinal), so that a second process given
         * the same id fails at start instead of repeating the first one's IDs. The lease renews and
         * fences as any other; it never moves to another id: once another holder took it, it stays
         * fenced until its own id is free again ({@link #reclaimAnyId(boolean)} does not apply).
         *
         * @param machineId the id, in 0..{@link #maxMachineId(long) maxMachineId}
         * @return this builder
         * @throws IllegalArgumentException if the id is negative
         */
        public Builder machineId(long machineId) {
            if (machineId < 0) {
                throw new IllegalArgumentException("machineId = " + machineId + " is negative; allowed: 0..maxMachineId"
                        + " (default 1023)");
            }
            this.exactId = machineId;
            return this;
        }

        /**
         * @param ttl how long a claim or renewal lasts by the database's clock; default 30 s, at
         *     least 100 ms; see {@link LeaseTimings} for what it must exceed
         * @return this builder
         */
        public Builder ttl(Duration ttl) {
            settings.ttl(ttl);
            return this;
        }

        /**
         * @param renewEvery the pause between renewals; default a fifth of the TTL
         * @return this builder
         */
        public Builder renewEvery(Duration renewEvery) {
            settings.renewEvery(renewEvery);
            return this;
        }

        /**
         * @param margin how far before {@code expiry - maxClockSkew} the fence stands; default a
         *     tenth of the TTL
         * @return this builder
         */
        public Builder safetyMargin(Duration margin) {
            settings.safetyMargin(margin);
            return this;
        }

        /**
         * @param max the largest difference allowed between any holder's clock and the database's;
         *     default {@link LeaseTimings#DEFAULT_MAX_CLOCK_SKEW} (1 s). Every holder of one table
         *     should use the same bound and margin.
         * @return this builder
         */
        public Builder maxClockSkew(Duration max) {
            settings.maxClockSkew(max);
            return this;
        }

        /**
         * @param clock the local wall clock compared with the database's: the generator's clock;
         *     default the system clock
         * @return this builder
         */
        public Builder clock(InstantSource clock) {
            settings.clock(clock);
            return this;
        }

        /**
         * @param owner the holder's name written in the row; default host, process id and a random
         *     suffix ({@link LeaseGuard#defaultOwner()})
         * @return this builder
         */
        public Builder owner(String owner) {
            settings.owner(owner);
            return this;
        }

        /**
         * What the lease does once another holder took its id (it was paused, or cut off from the
         * database, past the TTL) or another copy of this process image renewed first: claim its own
         * id again if free, else the lowest free id, and carry the generator on under it; or wait
         * for its own id only.
         *
         * @param anyId default {@code true}; {@code false} for a process that must keep one id for
         *     its whole life (it stays fenced while another holder has the id)
         * @return this builder
         */
        public Builder reclaimAnyId(boolean anyId) {
            settings.reclaimAnyId(anyId);
            return this;
        }

        /**
         * Whether the lease renews itself on a thread of its own. Without it the caller renews
         * ({@link JdbcMachineIdLease#renewNow()}); for tests. The fence never needs a thread.
         *
         * @param background default {@code true}
         * @return this builder
         */
        Builder background(boolean background) {
            settings.background(background);
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
                SqlDialect d = dialectOf(c);
                st.execute(d.createTable(table));
                if (!new LeaseTable(table, d).hasCurrentColumns(c)) {
                    // a table made by an earlier version: add the nonce and the writer's offset
                    // (0 on old rows: the claim then assumes the narrowest fence offset, the safe side)
                    for (String alter : d.addNewColumns(table)) {
                        st.execute(alter);
                    }
                }
            } catch (SQLException e) {
                throw new MachineIdLeaseException("Could not create lease table " + table + ": " + e.getMessage(), e);
            }
        }

        /**
         * Claims the lowest free machine id (or exactly {@link #machineId(long)}), renews it once (a
         * claim's own write opens no fence) and
         * returns the lease, renewing in the background.
         *
         * @return the lease, held
         * @throws MachineIdLeaseException if every id is held (or the exact id is: the message names its
         *     holder's owner and when its claim expires), the table is missing or the database
         *     unreachable, or the clocks differ by more than {@link #maxClockSkew(Duration)}
         * @throws IllegalArgumentException naming the numbers, if the timings do not fit
         *     ({@link LeaseTimings})
         */
        public JdbcMachineIdLease acquire() {
            LeaseTimings timings = settings.timings();
            if (exactId > settings.maxMachineId()) {
                throw new IllegalArgumentException("machineId = " + exactId + " is above maxMachineId = "
                        + settings.maxMachineId() + "; allowed: 0.." + settings.maxMachineId() + " (raise maxMachineId"
                        + " up to the layout's maxMachineId() for a wider id)");
            }
            if (createTable) {
                createTableNow();
            }
            JdbcLeaseProtocol protocol;
            JdbcLeaseProtocol.Row row;
            try {
                try (Connection c = dataSource.getConnection()) {
                    protocol = new JdbcLeaseProtocol(dataSource, new LeaseTable(table, dialectOf(c)),
                            settings.ownerOrDefault(), timings.ttl().toMillis(), timings.fenceOffsetMillis(),
                            timings.maxClockSkew().toMillis(), queryTimeoutSeconds(timings), settings.clock());
                }
                row = exactId >= 0 ? protocol.claimExact(exactId) : protocol.claimLowestFree(settings.maxMachineId());
            } catch (SQLException e) {
                throw new MachineIdLeaseException("Could not claim a machine id in table " + table
                        + " (create it with createTable(true) or the shipped DDL): " + e.getMessage(), e);
            }
            long id = row.machineId();
            JdbcMachineIdLease lease = new JdbcMachineIdLease(protocol, timings, settings.clock(), id,
                    settings.maxMachineId(), exactId < 0 && settings.reclaimAnyId()); // an exact id never moves
            boolean held;
            try {
                synchronized (lease.lock) {
                    held = lease.takeClaim(row);
                }
            } catch (SQLException e) {
                lease.close();
                throw new MachineIdLeaseException("Claimed machine id " + id + " in table " + table
                        + " but could not confirm it: " + e.getMessage(), e);
            }
            if (!held) {
                String why = lease.guard().state();
                lease.close(); // frees the id at once
                throw new MachineIdLeaseException("Could not hold machine id " + id + " in table " + table + ": "
                        + why + "; fix the clock (NTP) or the timings before claiming a machine id");
            }
            LOG.info("Claimed machine id {} in table {} (token {}, high-water mark {}, clock skew {} ms, fence {})", id,
                    table, lease.token, LeaseGuard.markText(lease.highWaterMark()), lease.guard().skewMillis(), lease.fence());
            if (settings.background()) {
                lease.startBackground(timings.renewEvery());
            }
            return lease;
        }

        /** JDBC takes whole seconds: the call timeout, at least 1 s. */
        private static int queryTimeoutSeconds(LeaseTimings t) {
            return (int) Math.max(1, t.callTimeout().toSeconds());
        }

        private SqlDialect dialectOf(Connection c) throws SQLException {
            return dialect != null ? dialect : SqlDialect.of(c.getMetaData().getDatabaseProductName());
        }
    }
}
