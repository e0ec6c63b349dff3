package dev.idgen.lease;

import dev.idgen.lease.spi.LeaseRecord;
import dev.idgen.lease.spi.LeaseStore;
import dev.idgen.lease.spi.NamespaceRecord;
import dev.idgen.lease.spi.StoreTime;
import dev.idgen.machine.MachineIdLease;
import dev.idgen.machine.MachineIdLeaseException;
import dev.idgen.machine.spi.MachineIdUser;
import java.security.SecureRandom;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SortedMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The life of a machine-id lease, the same on every store: claim, confirm, hold, renew, fence,
 * claim again, restore, release. Every rule lives here once; a {@link LeaseStore} only keeps and
 * compares records.
 *
 * <p><b>What is kept where.</b> The store keeps, per id, the holder's owner, token, nonce, expiry,
 * the mark and the writer's fence offset; per namespace, the layout, how far the id records reach
 * and from when they can be believed. This object keeps the claim in force: its id, the record as
 * this process last wrote it, the last two acknowledged expiries and when the last acknowledged
 * write started (the fence is computed from them: {@link LeaseTimings#fence}), the claim's floor,
 * and the generator ({@link GeneratorLink}).
 *
 * <p><b>Every write is a compare-and-set on the record's nonce</b>, and every write draws a new
 * nonce from the operating system's entropy. So a claim takes an id only if no one wrote it since it
 * was read free; a renewal extends only the record this copy of the process wrote last: of two
 * copies of one process image, the first to write keeps the id and the other sees a nonce it never
 * wrote, loses the id and claims another.
 *
 * <p><b>Restores.</b> A copy that sees a restore signal ({@link #restored}) never writes its old
 * record again: it forgets it, fences at once, and claims as a new holder, so the id stays with the
 * original (or expires) and the copy starts on a free id above that id's floor. Thread-safe: every
 * transition runs under this object's lock; the reads for health and the generator are volatile.
 */
final class LeaseLife {

    static final Logger LOG = LoggerFactory.getLogger(StoreLease.class);
    private static final long NONE = Long.MIN_VALUE;
    /** Ids created per {@link LeaseStore#extend} call. */
    static final int EXTEND_CHUNK = 64;
    /** Ids per {@link LeaseStore#read} call. */
    static final int READ_CHUNK = 1024;
    /** The owner written in a record the store lost and the life wrote again, held until no holder from before can stamp. */
    static final String FORGOTTEN = "(record lost by the store)";

    private final LeaseConfig config;
    private final LeaseStore store;
    private final LeaseTimings timings;
    private final InstantSource clock;
    private final GeneratorLink link;
    /** Nonces mix the operating system's entropy into every draw, so two copies of one image draw different ones. */
    private final SecureRandom nonces = new SecureRandom();
    private volatile IncarnationWatch watch;

    // --- the claim in force; guarded by this
    private long id = -1;
    /** Our record as last written and acknowledged; null when there is no claim this copy may continue. */
    private volatile LeaseRecord held;
    /** A write to our record whose outcome is unknown: its nonce. */
    private long pendingNonce;
    private boolean uncertain;
    /** A claim whose write's outcome is unknown: the record it wrote, its id and its floor. */
    private LeaseRecord pendingClaim;
    private long pendingClaimId = -1;
    private long pendingClaimFloor;
    private long previousExpiry = NONE;
    private long lastExpiry = NONE;
    private long lastWriteStart = NONE;
    private boolean released;
    /** Between beforeCheckpoint() and afterRestore(): no claim, no write. */
    private boolean suspended;
    private volatile long holds;
    private volatile ScheduledExecutorService renewer;

    // --- read without the lock (a refused ID's message and health checks never wait for a store call)
    /**
     * Where the life is, with the fence and floor it judges by, as one value: transitions are made
     * under the lock, except that a reader who sees time pass a held fence moves it to fenced by a
     * compare-and-set, which fails if a transition replaced the value meanwhile.
     */
    private final AtomicReference<Status> status =
            new AtomicReference<>(new Status(LeaseState.CLAIMING, Long.MIN_VALUE, Long.MIN_VALUE, "not claimed yet"));
    private final AtomicLong losses = new AtomicLong();
    private volatile long skewMillis;
    private volatile long machineId = -1;

    /**
     * @param phase where the life is
     * @param fence the first Unix ms no ID may cover
     * @param floor no ID at or below it
     * @param reason why, for the state text
     */
    private record Status(LeaseState phase, long fence, long floor, String reason) {
    }

    LeaseLife(LeaseConfig config) {
        this.config = config;
        this.store = config.store();
        this.timings = config.timings();
        this.clock = config.clock();
        this.link = new GeneratorLink(config.layout());
        this.watch = IncarnationWatch.ofThisProcess(clock, timings.maxClockSkew().toMillis());
    }

    // ------------------------------------------------------------------ what others read

    long machineId() {
        return machineId;
    }

    LeaseConfig config() {
        return config;
    }

    /** Held: open, the clock before the fence and past the claim's floor. Reads the clock; not for the ID path. */
    boolean isHeld() {
        Status st = status.get();
        if (st.phase() != LeaseState.HELD) {
            return false;
        }
        long now = clock.millis();
        if (now < st.fence() && now > st.floor()) {
            return true;
        }
        noticeLapse();
        return false;
    }

    LeaseState phase() {
        noticeLapse();
        return status.get().phase();
    }

    String state() {
        noticeLapse();
        Status st = status.get();
        return switch (st.phase()) {
            case HELD -> "held (fence at " + Instant.ofEpochMilli(st.fence()) + ")";
            case RELEASED -> "released";
            case CLAIMING -> "claiming: " + st.reason();
            case FENCED -> "fenced: " + st.reason();
        };
    }

    long fence() {
        return status.get().fence();
    }

    long floor() {
        return status.get().floor();
    }

    long highWaterMark() {
        return link.mark();
    }

    long skewMillis() {
        return skewMillis;
    }

    long losses() {
        noticeLapse();
        return losses.get();
    }

    long reclaims() {
        return Math.max(0, holds - 1);
    }

    long token() {
        LeaseRecord h = held;
        return h == null ? 0 : h.token();
    }

    void attach(MachineIdUser user) {
        link.attach(user, leaseName());
    }

    String leaseName() {
        return "machine id " + machineId + " " + store.describe();
    }

    void watchIncarnation(IncarnationWatch w) {
        this.watch = w;
    }

    // ------------------------------------------------------------------ acquire, step, close

    /**
     * Claims and confirms an id for the builder, waits until the clock is past its floor, and
     * starts renewing. Without a background thread it does not wait: the lease may still be
     * claiming (waiting for its floor) when it returns, and the caller drives it with
     * {@link #step()}.
     *
     * @throws MachineIdLeaseException naming the store and the cause when no id can be held
     */
    void acquire() {
        synchronized (this) {
            try {
                claim(true);
            } catch (MachineIdLeaseException e) {
                throw e;
            } catch (Exception e) {
                throw new MachineIdLeaseException("Could not claim a machine id " + store.describe() + ": " + e, e);
            }
        }
        if (config.background()) {
            startRenewing(); // it keeps renewing while the claim waits for its floor
            awaitHeld();
        }
        LeaseState p = phase();
        if (!isHeld() && !(p == LeaseState.CLAIMING && !config.background())) {
            String why = state();
            close();
            throw new MachineIdLeaseException("Could not hold " + leaseName() + ": " + why
                    + "; fix the clock (NTP), the store or the timings before claiming a machine id");
        }
        LOG.info("Claimed {} (owner {}, token {}, high-water mark {}, clock skew {} ms, fence {})", leaseName(),
                config.owner(), token(), markText(link.mark()), skewMillis, Instant.ofEpochMilli(fence()));
    }

    /**
     * One step of the lease's own thread: look for a restore, renew the claim in force (twice when
     * a lapse needs a second write to open), or claim again; then open the fence once the clock is
     * past the floor.
     *
     * @return whether the lease is held afterwards
     */
    synchronized boolean step() {
        if (released || suspended) {
            return false;
        }
        String signal = watch.check();
        if (signal != null) {
            restored(signal);
        }
        try {
            if (held != null) {
                renew();
                // The first write after a lapse (or after the clock left the skew bound) may open
                // nothing: its fence counts the expiry written before the lapse, which lies behind the
                // clock. The second, at once. "Behind" as openIfPastFloor judges it: a fence at the
                // current millisecond is passed.
                if (held != null && lastExpiry != NONE && status.get().phase() != LeaseState.HELD
                        && fence() <= clock.millis()) {
                    renew();
                }
            }
            if (held == null && status.get().phase() != LeaseState.RELEASED) {
                claim(false);
            }
        } catch (MachineIdLeaseException e) {
            LOG.warn("{}: {}", leaseName(), e.getMessage());
        } catch (Exception e) {
            LOG.warn("Renewing or claiming {} failed (the fence stays where the last acknowledged writes put it): {}",
                    leaseName(), e.toString());
        }
        openIfPastFloor();
        return isHeld();
    }

    /**
     * Shuts the fence for good, records the generator's mark and frees the id. Never throws: a
     * store that does not answer lets the claim expire.
     */
    void close() {
        ScheduledExecutorService r;
        synchronized (this) {
            if (released) {
                return;
            }
            released = true;
            shut("released", LeaseState.RELEASED);
            r = renewer;
            releaseRecord("released");
        }
        if (r != null) {
            r.shutdownNow();
        }
    }

    /**
     * A checkpoint is about to be taken: gives the id back (mark recorded, fence shut), so the image
     * holds no claim; after the restore each copy claims as a new holder.
     */
    synchronized void beforeCheckpoint() {
        if (released) {
            return;
        }
        suspended = true;
        releaseRecord("a checkpoint is being taken");
        lose("a checkpoint is being taken: the id was given back; claiming again after the restore");
    }

    /** This process was restored or copied: never write the old claim again, claim as a new holder. */
    void afterRestore() {
        synchronized (this) {
            suspended = false;
            restored("afterRestore() was called");
        }
        ScheduledExecutorService r = renewer;
        if (r != null && !r.isShutdown()) {
            r.execute(this::stepQuietly);
        }
    }

    /**
     * A copy of this life as a restored copy of this process image would hold it: the same claim,
     * record, expiries, fence and mark, on {@code via}, with no thread and no generator.
     */
    synchronized LeaseLife copyOfImage(LeaseStore via) {
        LeaseConfig c = new LeaseConfig(via, config.timings(), config.clock(), config.owner(), config.layout(),
                config.minId(), config.maxId(), config.exactId(), config.reclaimAnyId(), false);
        LeaseLife copy = new LeaseLife(c);
        copy.link.raiseTo(link.toRecord());
        copy.id = id;
        copy.machineId = machineId;
        copy.held = held;
        copy.pendingNonce = pendingNonce;
        copy.uncertain = uncertain;
        copy.previousExpiry = previousExpiry;
        copy.lastExpiry = lastExpiry;
        copy.lastWriteStart = lastWriteStart;
        copy.holds = holds;
        copy.status.set(status.get());
        copy.link.fenceFrom(link.fence());
        return copy;
    }

    // ------------------------------------------------------------------ claiming

    /**
     * Claims an id (the one in force first if this copy may continue it, else its own id if free,
     * else the lowest free one, or only the exact id) and confirms it with a second write.
     *
     * @param first whether this is the builder's claim: a refusal then throws
     */
    private void claim(boolean first) throws Exception {
        StoreTime t = readTime();
        if (!acceptSkew(t)) {
            throw new MachineIdLeaseException("The local clock is " + t.skewMillis() + " ms from the clock "
                    + store.describe() + " (measured within " + t.uncertaintyMillis() + " ms), beyond maxClockSkew "
                    + timings.skewMillis() + " ms: no claim until it is back within the bound");
        }
        if (pendingClaim != null && settlePendingClaim(t)) {
            confirm();
            return;
        }
        NamespaceRecord ns = namespace(t);
        long rounds = claimRounds();
        // looks that only extended the namespace or wrote lost records again are no lost races; they
        // are bounded apart: each batch of ids up to the highest created, and each batch written again
        long changes = 0;
        long maxChanges = 2 * (Math.max(config.maxId(), config.exactId()) / EXTEND_CHUNK + 1) + rounds;
        long lost = 0;
        while (lost < rounds) {
            List<Long> ids = new ArrayList<>();
            List<LeaseRecord> records = new ArrayList<>();
            NamespaceRecord changed = candidates(ns, t, ids, records);
            if (changed != null) {
                ns = changed;
                if (++changes > maxChanges) {
                    throw new MachineIdLeaseException("The namespace " + store.describe() + " changed " + changes
                            + " times during one claim (ids added, lost records written again); is something"
                            + " deleting its records?");
                }
                continue;
            }
            if (ids.isEmpty()) {
                refuseFull(first, t);
                return;
            }
            if (lost > 0) {
                // claimers that lost a race stop racing in step; until then the lowest free ids go first
                shuffleAfterFirst(ids, records);
            }
            for (int i = 0; i < ids.size(); i++) {
                if (clock.millis() - t.localAfterMillis() > timings.callTimeout().toMillis()) {
                    t = readTime(); // a claim's expiry counts from a fresh reading of the store's clock
                }
                if (take(ids.get(i), records.get(i), t)) {
                    confirm();
                    return;
                }
            }
            lost++;
            t = readTime();
        }
        throw new MachineIdLeaseException("Lost the race for the free machine ids " + rangeText() + " "
                + store.describe() + " " + lost + " times over, each to another claimer; ids are freed as fast as"
                + " others take them, try again");
    }

    /**
     * The free ids to try, best first, with their records; or a changed namespace record when the
     * namespace had to be extended or a lost record written again (then look again).
     */
    private NamespaceRecord candidates(NamespaceRecord ns, StoreTime t, List<Long> ids, List<LeaseRecord> records)
            throws Exception {
        // the id a claim prefers (the exact one, or the one held last), and whether any other will do
        long own = config.exactId() >= 0 ? config.exactId() : id;
        boolean any = config.exactId() < 0 && (config.reclaimAnyId() || id < 0);
        long lo = any ? config.minId() : own;
        long hi = any ? config.maxId() : own;
        long top = Math.min(hi, ns.highestId());
        long now = t.storeMillis();
        // free: expired, or never claimed (then its floor may still lie ahead: a new or emptied store,
        // a record written again after the store lost it). Ids whose floor is behind the clock first.
        List<Long> waiting = new ArrayList<>();
        List<LeaseRecord> waitingRecords = new ArrayList<>();
        for (long from = lo; from <= top; from += READ_CHUNK) {
            long to = Math.min(top, from + READ_CHUNK - 1);
            SortedMap<Long, LeaseRecord> found = store.read(from, to);
            for (long i = from; i <= to; i++) {
                LeaseRecord r = found.get(i);
                if (r == null) {
                    return rewriteLost(ns, i, Math.min(to, i + EXTEND_CHUNK - 1), t);
                }
                if ((r.expiresMillis() < now || r.token() == 0) && (i == own || any)) {
                    boolean ready = timings.floor(r, now) < now;
                    List<Long> into = ready ? ids : waiting;
                    List<LeaseRecord> intoRecords = ready ? records : waitingRecords;
                    int at = i == own ? 0 : into.size();
                    into.add(at, i);
                    intoRecords.add(at, r);
                }
            }
            if (ids.size() >= 16 && (own < 0 || own <= to)) {
                break; // enough to try, the preferred one among them if it is free
            }
        }
        ids.addAll(waiting);
        records.addAll(waitingRecords);
        if (ids.isEmpty() && ns.highestId() < hi) {
            return extend(ns, hi, t);
        }
        return null;
    }

    /** Shuffles the candidates after the first (the preferred one, when free), keeping each record with its id. */
    private static void shuffleAfterFirst(List<Long> ids, List<LeaseRecord> records) {
        java.util.concurrent.ThreadLocalRandom random = java.util.concurrent.ThreadLocalRandom.current();
        for (int i = ids.size() - 1; i > 1; i--) {
            int j = 1 + random.nextInt(i);
            Collections.swap(ids, i, j);
            Collections.swap(records, i, j);
        }
    }

    /** Creates the next records of the namespace (free from its trusted time), or the ones up to the exact id. */
    private NamespaceRecord extend(NamespaceRecord ns, long upTo, StoreTime t) throws Exception {
        long from = ns.highestId() + 1;
        long to = Math.min(upTo, from + EXTEND_CHUNK - 1);
        NamespaceRecord next = new NamespaceRecord(ns.layout(), to, nonce(ns.nonce()), ns.trustedFromMillis());
        LeaseRecord initial = LeaseRecord.unclaimed(nonce(0), ns.trustedFromMillis() == Long.MIN_VALUE
                ? LeaseRecord.NEVER : ns.trustedFromMillis());
        store.extend(ns.nonce(), next, from, to, initial);
        return reread(t);
    }

    /**
     * A record below the namespace's highest id is gone: the store lost it (a delete, an eviction).
     * Writes it again as held by an unknown holder for one ttl from now, with no fence offset, so no
     * claim starts below any fence a forgotten holder could have had.
     */
    private NamespaceRecord rewriteLost(NamespaceRecord ns, long lostId, long upTo, StoreTime t) throws Exception {
        long until = LeaseTimings.plus(t.storeMillis(), timings.ttl().toMillis());
        LOG.warn("The record of machine id {} {} is gone although the namespace had it: the store lost it (deleted,"
                + " evicted, restored from an older copy). Missing records from it up to {} count as held until {},"
                + " one ttl from now, so that no holder from before can still be making IDs with them", lostId,
                store.describe(), upTo, Instant.ofEpochMilli(until));
        NamespaceRecord same = new NamespaceRecord(ns.layout(), ns.highestId(), nonce(ns.nonce()), ns.trustedFromMillis());
        store.extend(ns.nonce(), same, lostId, upTo, new LeaseRecord(FORGOTTEN, 0, nonce(0), until,
                LeaseRecord.NEVER, 0));
        return reread(t);
    }

    private NamespaceRecord reread(StoreTime t) throws Exception {
        NamespaceRecord ns = store.readNamespace();
        return ns != null ? checkLayout(ns, t) : namespace(t);
    }

    /**
     * The namespace record, written first if missing. A missing one means a new namespace or an
     * emptied store (a flush, a truncate, a restart without persistence), which look the same: the
     * records it will create are free only one ttl from now, when no holder from before can still
     * stamp.
     */
    private NamespaceRecord namespace(StoreTime t) throws Exception {
        NamespaceRecord ns = store.readNamespace();
        if (ns == null) {
            long trusted = LeaseTimings.plus(t.storeMillis(), timings.ttl().toMillis());
            if (store.createNamespace(new NamespaceRecord(config.layout(), -1, nonce(0), trusted))) {
                LOG.warn("No namespace record {}: the store is new, or it was emptied (flushed, truncated, restarted"
                        + " without persistence), which looks the same. Its machine ids are free from {} on, one ttl"
                        + " from now, so that no holder from before can still be making IDs", store.describe(),
                        Instant.ofEpochMilli(trusted));
            }
            ns = store.readNamespace();
            if (ns == null) {
                throw new MachineIdLeaseException("The namespace record " + store.describe()
                        + " vanished right after it was written; is something deleting the store's keys?");
            }
        }
        return checkLayout(ns, t);
    }

    private NamespaceRecord checkLayout(NamespaceRecord ns, StoreTime t) throws Exception {
        if (ns.layout().isEmpty()) {
            // made by a schema script, before any holder: the first claimer names the layout
            NamespaceRecord named = new NamespaceRecord(config.layout(), ns.highestId(), nonce(ns.nonce()),
                    ns.trustedFromMillis());
            store.extend(ns.nonce(), named, 0, -1, LeaseRecord.unclaimed(0, LeaseRecord.NEVER));
            return reread(t);
        }
        if (!ns.layout().equals(config.layout())) {
            throw new MachineIdLeaseException("The machine ids " + store.describe() + " are held for layout ["
                    + ns.layout() + "], but this lease is for layout [" + config.layout() + "]: IDs of two layouts on"
                    + " one set of machine ids can be equal. Give every holder of this namespace one layout; a"
                    + " generator of another layout needs a namespace of its own, and its IDs must not go into the"
                    + " tables these IDs go into");
        }
        return ns;
    }

    /** Claims {@code candidate} if its record is still as read; false if another writer was first. */
    private boolean take(long candidate, LeaseRecord r, StoreTime t) throws Exception {
        long now = t.storeMillis();
        long start = timings.floor(r, now);
        if (t.restartedAtMillis() != Long.MIN_VALUE) {
            // the store may have lost acknowledged writes when it restarted: a holder from before the
            // restart wrote no expiry later than restart + ttl
            start = Math.max(start, LeaseTimings.plus(t.restartedAtMillis(), timings.ttl().toMillis()) - 1);
        }
        // the record keeps the floor as its mark: a mark beyond the store's clock plus the skew bound
        // (a clock outside the bound once) is healed here, never carried on
        LeaseRecord next = new LeaseRecord(config.owner(), r.token() + 1, nonce(r.nonce()),
                LeaseTimings.plus(now, timings.ttl().toMillis()), start, timings.fenceOffsetMillis());
        boolean won;
        try {
            won = store.replace(candidate, r.nonce(), next);
        } catch (Exception e) {
            pendingClaim = next; // it may have landed: the next claim looks first
            pendingClaimId = candidate;
            pendingClaimFloor = start;
            throw e;
        }
        if (won) {
            taken(candidate, next, start, t.localBeforeMillis());
        }
        return won;
    }

    /** A claim whose outcome was unknown: if its write landed, it is ours. */
    private boolean settlePendingClaim(StoreTime t) throws Exception {
        LeaseRecord mine = pendingClaim;
        long candidate = pendingClaimId;
        pendingClaim = null;
        LeaseRecord r = store.read(candidate, candidate).get(candidate);
        if (r == null || r.nonce() != mine.nonce()) {
            return false;
        }
        taken(candidate, mine, pendingClaimFloor, t.localBeforeMillis());
        return true;
    }

    /**
     * A claim of {@code candidate} was written: the generator is raised to the floor, then moved to
     * the id with its fence shut; the claim's own write opens nothing.
     */
    private void taken(long candidate, LeaseRecord record, long start, long writeStart) {
        long before = id;
        link.raiseTo(start);
        try {
            link.switchTo(before, candidate);
        } catch (IllegalArgumentException | UnsupportedOperationException e) {
            held = record;
            id = candidate;
            releaseRecord("the generator cannot take it");
            held = null;
            id = before;
            throw new MachineIdLeaseException("Claimed machine id " + candidate + " " + store.describe()
                    + " but the generator cannot take it (" + e.getMessage() + "); gave it back. Set the lease's"
                    + " layout (or maxMachineId) to the generator's");
        }
        if (before >= 0 && before != candidate) {
            LOG.info("Claimed machine id {} {} after machine id {} was lost (token {}, floor {})", candidate,
                    store.describe(), before, record.token(), markText(start));
        }
        id = candidate;
        machineId = candidate;
        held = record;
        uncertain = false;
        previousExpiry = NONE;
        lastExpiry = record.expiresMillis();
        lastWriteStart = writeStart;
        status.set(new Status(LeaseState.CLAIMING, Long.MIN_VALUE, start, "claimed machine id " + candidate
                + "; confirming with a second write"));
    }

    /** The second write of a claim: opens the fence (or waits for the floor). */
    private void confirm() throws Exception {
        renew();
    }

    private void refuseFull(boolean first, StoreTime t) throws Exception {
        if (config.exactId() >= 0) {
            long exact = config.exactId();
            LeaseRecord r = store.read(exact, exact).get(exact);
            String holder = r == null ? "another claimer" : "a live lease of owner '" + r.owner() + "' (token "
                    + r.token() + ") until " + Instant.ofEpochMilli(r.expiresMillis()) + " by the store's clock ("
                    + (r.expiresMillis() - t.storeMillis()) + " ms from now)";
            String msg = "Machine id " + exact + " " + store.describe() + " is held by " + holder + ": another"
                    + " process runs with this id. Give this process an id of its own, or stop that one; if it has"
                    + " stopped already, the id is free once its claim has expired";
            if (first) {
                throw new MachineIdLeaseException(msg);
            }
            because(msg);
            return;
        }
        String msg = "Every machine id " + rangeText() + " " + store.describe() + " is held by a live lease; free one,"
                + " or widen the space: raise maxMachineId (up to the layout's maxMachineId()) or use a layout with"
                + " more machine-id bits (e.g. SnowflakeLayout.SONYFLAKE, 0..65535)";
        if (first) {
            throw new MachineIdLeaseException(msg);
        }
        because(msg);
    }

    /** Keeps the phase, fence and floor, with a new reason for the state text. Caller holds the lock. */
    private void because(String why) {
        Status st = status.get();
        status.set(new Status(st.phase(), st.fence(), st.floor(), why));
    }

    private String rangeText() {
        return config.minId() + ".." + config.maxId();
    }

    private long claimRounds() {
        long size = config.maxId() - config.minId() + 1;
        return Math.min(size, 1 << 16) + 1;
    }

    // ------------------------------------------------------------------ renewing

    /**
     * Writes the claim in force again: a new expiry from the store's clock, the generator's mark, a
     * new nonce, only where the record still has the nonce this copy wrote last. A write that is not
     * acknowledged leaves the fence where it was, or shuts it when the record is not ours.
     */
    private void renew() throws Exception {
        if (uncertain && !settleUncertain()) {
            return;
        }
        StoreTime t = readTime();
        if (!acceptSkew(t)) {
            lose("the local clock is " + t.skewMillis() + " ms from the clock " + store.describe() + " (measured within "
                    + t.uncertaintyMillis() + " ms), beyond the allowed skew of " + timings.skewMillis() + " ms");
            return;
        }
        long now = t.storeMillis();
        LeaseRecord mine = held;
        LeaseRecord next = new LeaseRecord(mine.owner(), mine.token(), nonce(mine.nonce()),
                LeaseTimings.plus(now, timings.ttl().toMillis()),
                timings.markToRecord(mine.markMillis(), link.toRecord(), now), timings.fenceOffsetMillis());
        boolean ok;
        try {
            ok = store.replace(id, mine.nonce(), next);
        } catch (Exception e) {
            uncertain = true;
            pendingNonce = next.nonce();
            throw e;
        }
        if (!ok) {
            loseToWhatIsThere();
            return;
        }
        acknowledged(next, t.localBeforeMillis());
    }

    /** A renewal's outcome was unknown: see whether it landed. False if the record is not ours any more. */
    private boolean settleUncertain() throws Exception {
        LeaseRecord r = store.read(id, id).get(id);
        uncertain = false;
        if (r != null && r.nonce() == pendingNonce) {
            held = r; // it landed; not counted as acknowledged, so the fence does not move
            return true;
        }
        if (r != null && r.nonce() == held.nonce()) {
            return true;
        }
        loseToWhatIsThere(r);
        return false;
    }

    private void loseToWhatIsThere() throws Exception {
        loseToWhatIsThere(store.read(id, id).get(id));
    }

    private void loseToWhatIsThere(LeaseRecord r) {
        LeaseRecord mine = held;
        held = null;
        if (r == null) {
            lose("the store lost the record of machine id " + id + "; claiming as a new holder");
        } else if (mine != null && r.owner().equals(mine.owner()) && r.token() == mine.token()) {
            lose("another copy of this process image wrote the record first (its nonce is not the one this copy"
                    + " wrote); claiming as a new holder");
        } else {
            lose("machine id " + id + " was taken by owner '" + r.owner() + "' (token " + r.token() + ")");
        }
    }

    /**
     * A write of the claim was acknowledged. The fence is the older of the last two expiries less the
     * skew bound and margin, and no later than the write's start plus the silence bound.
     */
    private void acknowledged(LeaseRecord next, long writeStart) {
        // a fence that time passed since the last write is a loss, whether or not anyone looked
        // meanwhile: counted before this write moves the fence (losses, and a reclaim once it opens)
        noticeLapse();
        held = next;
        previousExpiry = lastExpiry;
        lastExpiry = next.expiresMillis();
        lastWriteStart = writeStart;
        Status st = status.get();
        if (previousExpiry == NONE) {
            status.set(new Status(LeaseState.CLAIMING, st.fence(), st.floor(), "waiting for a second acknowledged write"));
            return;
        }
        long fence = timings.fence(Math.min(previousExpiry, lastExpiry), lastWriteStart);
        status.set(new Status(st.phase(), fence, st.floor(), st.reason()));
        openIfPastFloor();
    }

    /** Opens the generator's fence once the clock is past the claim's floor; notices a fence already passed. */
    private synchronized void openIfPastFloor() {
        if (released || suspended || held == null || previousExpiry == NONE) {
            return;
        }
        long now = clock.millis();
        Status st = status.get();
        if (now >= st.fence()) {
            if (st.phase() == LeaseState.HELD) {
                noticeLapse();
            } else {
                link.fenceFrom(Long.MIN_VALUE);
                status.set(new Status(LeaseState.FENCED, st.fence(), st.floor(), "no renewal acknowledged in time: the"
                        + " fence at " + Instant.ofEpochMilli(st.fence()) + " passed"));
            }
            return;
        }
        if (now <= st.floor()) {
            link.fenceFrom(Long.MIN_VALUE);
            status.set(new Status(LeaseState.CLAIMING, st.fence(), st.floor(), "waiting until " + markText(st.floor())
                    + ", above every ID an earlier holder of machine id " + id + " may have made"));
            return;
        }
        link.fenceFrom(st.fence());
        if (st.phase() != LeaseState.HELD) {
            holds++;
            if (holds > 1) {
                LOG.info("The lease on {} is held again (fence at {})", leaseName(), Instant.ofEpochMilli(st.fence()));
            }
        }
        status.set(new Status(LeaseState.HELD, st.fence(), st.floor(), "held"));
    }

    // ------------------------------------------------------------------ losing and releasing

    /** Shuts the fence and forgets this claim's expiries; counts a loss if the lease was held. */
    private void lose(String why) {
        noticeLapse();
        if (status.get().phase() == LeaseState.HELD) {
            losses.incrementAndGet();
            LOG.warn("The lease on {} is fenced: {}", leaseName(), why);
        }
        shut(why, released ? LeaseState.RELEASED : LeaseState.FENCED);
    }

    private void shut(String why, LeaseState to) {
        link.fenceFrom(Long.MIN_VALUE);
        previousExpiry = NONE;
        lastExpiry = NONE;
        status.set(new Status(to, Long.MIN_VALUE, status.get().floor(), why));
    }

    /**
     * Counts a fence that time passed while the lease counted as held: by a compare-and-set, so no
     * reader waits for the lock (a refused ID names the lease's state) and a transition made
     * meanwhile is never undone.
     */
    private void noticeLapse() {
        Status st = status.get();
        if (st.phase() == LeaseState.HELD && clock.millis() >= st.fence()) {
            String why = "no renewal acknowledged in time: the fence at " + Instant.ofEpochMilli(st.fence()) + " passed";
            if (status.compareAndSet(st, new Status(LeaseState.FENCED, st.fence(), st.floor(), why))) {
                losses.incrementAndGet();
                LOG.warn("The lease on {} is fenced: {}", leaseName(), why);
            }
        }
    }

    /**
     * This process may be a copy of another. The claim stays with whichever copy keeps writing it:
     * this one forgets it (it never writes it again, not even to release it), shuts the fence and
     * claims as a new holder.
     */
    private void restored(String why) {
        lose("restored or copied (" + why + "): claiming as a new holder, never with the old claim");
        held = null;
        uncertain = false;
        pendingClaim = null;
    }

    /** Gives the claim in force back (fence shut before the mark is read). Caller holds the lock. */
    private void releaseRecord(String why) {
        LeaseRecord mine = held;
        link.fenceFrom(Long.MIN_VALUE);
        if (mine == null) {
            return;
        }
        long mark = link.toRecord();
        try {
            if (uncertain && !settleUncertain()) {
                return;
            }
            mine = held;
            StoreTime t = store.time();
            long now = t.storeMillis();
            long expiry = timings.releaseExpiry(mark, now, mine.expiresMillis());
            LeaseRecord next = new LeaseRecord(mine.owner(), mine.token(), nonce(mine.nonce()), expiry,
                    timings.markToRecord(mine.markMillis(), mark, now), timings.fenceOffsetMillis());
            boolean ours = store.replace(id, mine.nonce(), next);
            LOG.info("Released {} ({}; high-water mark {}{})", leaseName(), why, markText(mark),
                    ours ? "" : "; the record was no longer ours");
        } catch (Exception e) {
            LOG.warn("Releasing {} failed ({}); it frees itself when the claim expires: {}", leaseName(), why,
                    e.toString());
        } finally {
            held = null;
        }
    }

    // ------------------------------------------------------------------ helpers

    private StoreTime readTime() throws Exception {
        StoreTime t = store.time();
        skewMillis = t.hasClock() ? t.skewMillis() : 0;
        return t;
    }

    private boolean acceptSkew(StoreTime t) {
        return !t.hasClock() || Math.abs(t.skewMillis()) + t.uncertaintyMillis() <= timings.skewMillis();
    }

    /** {@return a fresh nonce, never {@code avoid} nor 0} */
    private long nonce(long avoid) {
        long n;
        do {
            n = nonces.nextLong();
        } while (n == avoid || n == 0);
        return n;
    }

    /**
     * Waits while the claim is being confirmed or waits for its floor (the renewal thread works
     * meanwhile), at most until the floor plus a ttl, in real time.
     */
    private void awaitHeld() {
        long deadline = System.nanoTime() + (Math.max(0, floor() - clock.millis()) + timings.ttl().toMillis())
                * 1_000_000L;
        while (status.get().phase() == LeaseState.CLAIMING && System.nanoTime() - deadline < 0) {
            long left = floor() - clock.millis();
            java.util.concurrent.locks.LockSupport.parkNanos(Math.max(1, Math.min(left, 20)) * 1_000_000L);
        }
    }

    private void startRenewing() {
        String name = "idgen-lease-" + machineId + "-renew";
        renewer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
        schedule(nextDelay(false));
    }

    private void schedule(long delayMillis) {
        ScheduledExecutorService r = renewer;
        if (r == null || r.isShutdown()) {
            return;
        }
        try {
            r.schedule(this::loop, Math.max(1, delayMillis), TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // closed meanwhile
        }
    }

    private void loop() {
        schedule(nextDelay(stepQuietly()));
    }

    /**
     * {@return how long until the next step: a renewal pause while held; just past the floor while a
     * claim waits for it (never more than a pause, so the claim stays renewed); a quarter pause while
     * fenced or claiming}
     */
    long nextDelay(boolean held) {
        long every = timings.renewEvery().toMillis();
        Status st = status.get();
        if (held) {
            return every;
        }
        if (st.phase() == LeaseState.CLAIMING && this.held != null && st.floor() != Long.MIN_VALUE) {
            return Math.min(every, Math.max(1, st.floor() - clock.millis() + 1));
        }
        return Math.max(1, every / 4);
    }

    private boolean stepQuietly() {
        try {
            return step();
        } catch (RuntimeException e) {
            LOG.warn("The renewal of {} failed", leaseName(), e);
            return false;
        }
    }

    static String markText(long markMillis) {
        return markMillis == MachineIdLease.NO_MARK ? "none yet" : Instant.ofEpochMilli(markMillis).toString();
    }
}
