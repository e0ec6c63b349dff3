package dev.idgen.index.engine;

import dev.idgen.index.model.IndexModel;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongConsumer;

/**
 * Runs one key kind's workload on a real engine: makes the table ({@value #TABLE_PREFIX}, the run's
 * tag and the key's name), inserts with the writers, each on its own thread, connection and
 * generator, reads the engine's instruments, drops the table (unless {@link #keepingTables()}),
 * and feeds the model the keys in the order the engine took them.
 *
 * <p>Manners on a shared server: the tag makes every runner's tables its own (two users on one
 * database never meet, and a run never drops a table it did not make: one that exists is refused);
 * InnoDB's index counters, if the run switched them on, are switched off again after each key's
 * run; PostgreSQL's {@code pgstattuple} extension, if missing, is created and left in place (a
 * concurrent run may be reading it); the run's notes say what it changed.
 *
 * <p>The order rows went into the tree is taken to be the order of the midpoints of their INSERT
 * statements (the time halfway between the call and its return): close, not exact, since two
 * writers' statements can overlap. Auto-increment keys made by the engine are numbered in that
 * order. With {@link Workload#turnstile()} the writers take turns, one statement at a time, and the
 * order is exact.
 */
public final class RealRunner {

    /** Every table a run makes starts with this. */
    public static final String TABLE_PREFIX = "idgen_ix_";

    private final Database database;
    private final String url;
    private final InstantSource clock;
    private final String tag;
    private final boolean keepTables;

    /**
     * A runner whose tables carry a tag of their own ({@link #uniqueTag}).
     *
     * @param database the engine
     * @param url its JDBC URL
     * @param clock the clock the generators read (the system clock outside tests)
     */
    public RealRunner(Database database, String url, InstantSource clock) {
        this(database, url, clock, uniqueTag(clock.millis(), java.util.concurrent.ThreadLocalRandom.current().nextLong()));
    }

    /**
     * @param database the engine
     * @param url its JDBC URL
     * @param clock the clock the generators read (the system clock outside tests)
     * @param tag lower-case letters and digits put between the prefix and the key's name, so that
     *     runs at the same time on one database keep apart; empty for none
     */
    public RealRunner(Database database, String url, InstantSource clock, String tag) {
        this(database, url, clock, tag, false);
    }

    private RealRunner(Database database, String url, InstantSource clock, String tag, boolean keepTables) {
        this.database = Objects.requireNonNull(database, "database");
        this.url = Objects.requireNonNull(url, "url");
        this.clock = Objects.requireNonNull(clock, "clock");
        if (!tag.matches("[a-z0-9]{0,20}")) {
            throw new IllegalArgumentException("table tag '" + tag + "' is not allowed; expected up to 20 lower-case letters and digits");
        }
        this.tag = tag;
        this.keepTables = keepTables;
    }

    /**
     * A tag for one run's tables: {@code r}, the run's start in whole seconds and five random digits,
     * all in base 36 (12 characters until 2039, 13 after), so runs started by different
     * people, or by one person twice in a second, get different tables.
     *
     * @param epochMillis the run's start
     * @param random random bits
     * @return lower-case letters and digits
     */
    public static String uniqueTag(long epochMillis, long random) {
        if (epochMillis < 0) {
            throw new IllegalArgumentException("start " + epochMillis + " ms is out of range; expected 0 or more");
        }
        // 36^4 .. 36^5 - 1: always five base-36 digits, about 26 random bits
        long digits = 36L * 36 * 36 * 36 + Math.floorMod(random, 36L * 36 * 36 * 36 * 35);
        return "r" + Long.toString(epochMillis / 1000, 36) + Long.toString(digits, 36);
    }

    /** @return this runner, except that its tables are left in place after each run (and named in its notes) */
    public RealRunner keepingTables() {
        return new RealRunner(database, url, clock, tag, true);
    }

    /** @return the tag between {@value #TABLE_PREFIX} and the key's name in this runner's tables */
    public String tag() {
        return tag;
    }

    /**
     * @param key a key kind
     * @return the table a run of that key kind uses
     */
    public String table(RealKey key) {
        return TABLE_PREFIX + (tag.isEmpty() ? "" : tag + "_") + key.cliName().replace('-', '_');
    }

    /**
     * @param key the key kind
     * @param w the workload
     * @param progress told the rows done so far, every few hundred milliseconds
     * @return the figures
     * @throws SQLException if the engine fails
     * @throws IllegalStateException if the table already holds data
     */
    public RealResult run(RealKey key, Workload w, LongConsumer progress) throws SQLException {
        if (w.multiRow() && key == RealKey.AUTO_INCREMENT && database == Database.POSTGRESQL && w.payloadBytes() == 0
                && w.secondaryIndexes() == 0) {
            throw new IllegalArgumentException("--multi-row with auto-increment keys and no other column cannot be"
                    + " written for PostgreSQL; add --payload or --secondary");
        }
        String table = table(key);
        try (Connection admin = database.connect(url)) {
            claim(admin, table);
            Database.ServerChanges changes = database.prepare(admin);
            RealResult result;
            try {
                result = createAndMeasure(admin, table, key, w, progress, changes);
            } catch (SQLException | RuntimeException e) {
                try {
                    database.restore(admin, changes);
                } catch (SQLException | RuntimeException r) {
                    e.addSuppressed(r);
                }
                throw e;
            }
            database.restore(admin, changes);
            return result;
        }
    }

    private RealResult createAndMeasure(Connection admin, String table, RealKey key, Workload w, LongConsumer progress,
            Database.ServerChanges changes) throws SQLException {
        try (Statement s = admin.createStatement()) {
            s.execute(database.createTable(table, key, w));
            for (int i = 1; i <= w.secondaryIndexes(); i++) {
                s.execute("CREATE INDEX " + table + "_s" + i + " ON " + table + " (s" + i + ")");
            }
        }
        Map<String, Object> notes = new LinkedHashMap<>();
        if (!changes.note().isEmpty()) {
            notes.put("instruments", changes.note());
        }
        if (!changes.describe().isEmpty()) {
            notes.put("server changes", changes.describe());
        }
        if (keepTables) {
            notes.put("table kept", table);
        }
        // the table is this run's own (claim refused any that existed), so dropping it drops nobody else's
        try {
            return measure(admin, table, key, w, progress, notes);
        } finally {
            if (!keepTables) {
                try (Statement s = admin.createStatement()) {
                    s.execute("DROP TABLE " + table);
                }
            }
        }
    }

    /** Refuses a table that already exists: it is someone else's, or a kept one; the run never drops it. */
    private void claim(Connection c, String table) throws SQLException {
        boolean exists;
        boolean empty = true;
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("SELECT 1 FROM " + table + " LIMIT 1")) {
            exists = true;
            empty = !r.next();
        } catch (SQLException e) {
            exists = false;
        }
        if (exists) {
            throw new IllegalStateException("table " + table + " already exists" + (empty ? "" : " and holds data")
                    + "; this tool only uses tables of its own and never drops one it did not make: drop it yourself,"
                    + " or run again (each run tags its tables anew)");
        }
    }

    private RealResult measure(Connection admin, String table, RealKey key, Workload w, LongConsumer progress,
            Map<String, Object> notes) throws SQLException {
        String version = database.version(admin);
        Map<String, Object> settings = database.settings(admin);
        int rows = Math.toIntExact(w.rows());
        long[] high = new long[rows];
        long[] low = new long[rows];
        byte[] writers = new byte[rows];
        long[] middle = new long[rows];
        AtomicLong order = new AtomicLong();
        AtomicLong remaining = new AtomicLong(rows);
        AtomicLong shared = new AtomicLong();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        long[][] latencies = new long[w.writers()][];
        int[] counts = new int[w.writers()];
        Map<String, Long> before = database.counters(admin, notes);

        Turnstile turnstile = w.turnstile() ? new Turnstile(w.writers(), w.seed()) : null;
        List<Thread> threads = new ArrayList<>();
        double loadBefore = loadAverage();
        long start = System.nanoTime();
        for (int i = 0; i < w.writers(); i++) {
            int writer = i;
            Thread t = new Thread(() -> {
                try (Connection c = database.connect(url)) {
                    latencies[writer] = write(c, table, key, w, writer, shared, remaining, order, high, low, writers, middle,
                            counts, turnstile);
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                    remaining.set(Long.MIN_VALUE / 2);
                } finally {
                    if (turnstile != null) {
                        turnstile.leave(writer);
                    }
                }
            }, "idgen-index-writer-" + writer);
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            while (t.isAlive()) {
                try {
                    t.join(250);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    remaining.set(Long.MIN_VALUE / 2);
                }
                progress.accept(Math.min(order.get(), rows));
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        double loadAfter = loadAverage();
        if (failure.get() != null) {
            Throwable e = failure.get();
            if (e instanceof SQLException sql) {
                throw sql;
            }
            throw new IllegalStateException("a writer failed: " + e, e);
        }
        Map<String, Long> after = database.counters(admin, notes);
        Map<String, Long> counters = new LinkedHashMap<>();
        after.forEach((name, value) -> counters.put(name, value - before.getOrDefault(name, 0L)));
        Map<String, Object> extra = new LinkedHashMap<>(notes);
        Figures real = database.figures(admin, table, key, w, rows, extra);

        long[] all = new long[Arrays.stream(counts).sum()];
        int at = 0;
        for (int i = 0; i < w.writers(); i++) {
            System.arraycopy(latencies[i], 0, all, at, counts[i]);
            at += counts[i];
        }
        Arrays.sort(all);

        boolean engineKey = key == RealKey.AUTO_INCREMENT && database.ownCounter();
        Arrival arrival = database.orderColumn(key, w) ? serverOrder(admin, table, key, high, low, writers)
                : database.timeColumn(w) && !engineKey ? serverTime(admin, table, key, high, low, writers, middle)
                : Arrival.inOrder(high, low, writers, middle, engineKey);
        IndexModel model = database.model().builder(database.modelKeyType(key, rows), database.rowBytes(key, w)).build();
        boolean wide = key.keyType().words() == 2;
        for (int r = 0; r < rows; r++) {
            if (wide) {
                model.insert(arrival.high()[r], arrival.low()[r]);
            } else {
                model.insert(arrival.high()[r]);
            }
        }
        var stats = model.stats();
        if (database.timeColumn(w) && !engineKey) {
            // the same run in the order of the statements' midpoints, to compare the two orders
            Arrival byMiddle = Arrival.inOrder(high, low, writers, middle, false);
            IndexModel other = database.model().builder(database.modelKeyType(key, rows), database.rowBytes(key, w)).build();
            for (int r = 0; r < rows; r++) {
                if (wide) {
                    other.insert(byMiddle.high()[r], byMiddle.low()[r]);
                } else {
                    other.insert(byMiddle.high()[r]);
                }
            }
            Map<String, Object> more = new LinkedHashMap<>(real.extra());
            more.put("model leaf pages, statement midpoint order", other.stats().leafPages());
            real = new Figures(real.leafPages(), real.internalPages(), real.leafFill(), real.indexBytes(), more);
        }
        return new RealResult(database, version, settings, key, w, seconds, percentile(all, 0.50), percentile(all, 0.99),
                real, counters, stats, database.model().leafFill(stats, database.rowBytes(key, w)),
                arrival, new double[] {loadBefore, loadAfter});
    }

    /**
     * The machine's load average over the last minute (runnable tasks, this run's writers and a
     * local server included), or -1 where the system does not say.
     */
    private static double loadAverage() {
        return java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }

    /** The keys in the order the server numbered them in column {@code o}, with their writers. */
    private static Arrival serverOrder(Connection c, String table, RealKey key, long[] high, long[] low, byte[] writers)
            throws SQLException {
        int n = high.length;
        Map<java.util.List<Long>, Byte> writerOf = new HashMap<>(2 * n);
        for (int i = 0; i < n; i++) {
            writerOf.put(java.util.List.of(high[i], low[i]), writers[i]);
        }
        long[] h = new long[n];
        long[] l = new long[n];
        byte[] w = new byte[n];
        boolean wide = key.keyType().words() == 2;
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("SELECT k FROM " + table + " ORDER BY o")) {
            for (int i = 0; r.next(); i++) {
                if (wide) {
                    java.nio.ByteBuffer b = key.keyType() == dev.idgen.index.model.KeyType.BINARY16
                            ? java.nio.ByteBuffer.wrap(r.getBytes(1)) : null;
                    java.util.UUID u = b != null ? new java.util.UUID(b.getLong(), b.getLong())
                            : java.util.UUID.fromString(r.getString(1));
                    h[i] = u.getMostSignificantBits();
                    l[i] = u.getLeastSignificantBits();
                } else {
                    h[i] = r.getLong(1);
                }
                w[i] = writerOf.getOrDefault(java.util.List.of(h[i], l[i]), (byte) 0);
            }
        }
        return new Arrival(h, l, w);
    }

    /**
     * The keys in the order of the server's clock as it built each row (column {@code t}, read to
     * the microsecond); rows of the same microsecond in the order of their statements' midpoints.
     */
    private static Arrival serverTime(Connection c, String table, RealKey key, long[] high, long[] low, byte[] writers,
            long[] middle) throws SQLException {
        int n = high.length;
        Map<java.util.List<Long>, Integer> rowOf = new HashMap<>(2 * n);
        for (int i = 0; i < n; i++) {
            rowOf.put(java.util.List.of(high[i], low[i]), i);
        }
        long[] micros = new long[n];
        boolean wide = key.keyType().words() == 2;
        int found = 0;
        try (Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT k, TIMESTAMPDIFF(MICROSECOND, '2000-01-01', t) FROM " + table)) {
            while (r.next()) {
                long h;
                long l = 0;
                if (wide) {
                    java.util.UUID u;
                    if (key.keyType() == dev.idgen.index.model.KeyType.BINARY16) {
                        java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(r.getBytes(1));
                        u = new java.util.UUID(b.getLong(), b.getLong());
                    } else {
                        u = java.util.UUID.fromString(r.getString(1));
                    }
                    h = u.getMostSignificantBits();
                    l = u.getLeastSignificantBits();
                } else {
                    h = r.getLong(1);
                }
                Integer row = rowOf.get(java.util.List.of(h, l));
                if (row == null) {
                    throw new IllegalStateException("the table holds a key the writers did not insert: " + h + "/" + l);
                }
                micros[row] = r.getLong(2);
                found++;
            }
        }
        if (found != n) {
            throw new IllegalStateException("the table holds " + found + " rows; the writers inserted " + n);
        }
        Integer[] index = new Integer[n];
        for (int i = 0; i < n; i++) {
            index[i] = i;
        }
        Arrays.sort(index, (a, b) -> micros[a] != micros[b] ? Long.compare(micros[a], micros[b])
                : middle[a] != middle[b] ? Long.compare(middle[a], middle[b]) : Integer.compare(a, b));
        long[] h = new long[n];
        long[] l = new long[n];
        byte[] w = new byte[n];
        for (int i = 0; i < n; i++) {
            h[i] = high[index[i]];
            l[i] = low[index[i]];
            w[i] = writers[index[i]];
        }
        return new Arrival(h, l, w);
    }

    private static double percentile(long[] sorted, double p) {
        if (sorted.length == 0) {
            return 0;
        }
        return sorted[(int) Math.min(sorted.length - 1, Math.floor(p * sorted.length))] / 1e3;
    }

    /** One writer's loop; returns its statement latencies in nanoseconds ({@code counts[writer]} of them). */
    private long[] write(Connection c, String table, RealKey key, Workload w, int writer, AtomicLong shared,
            AtomicLong remaining, AtomicLong order, long[] high, long[] low, byte[] writerOf, long[] middle, int[] counts,
            Turnstile turnstile) throws SQLException, InterruptedException {
        SplittableRandom random = new SplittableRandom(w.seed() * 1_000_003L + writer);
        RealKey.Maker maker = key.maker(writer, clock, shared, random.nextLong());
        boolean engineKey = key == RealKey.AUTO_INCREMENT && database.ownCounter();
        Map<Integer, PreparedStatement> statements = new HashMap<>();
        long[] lat = new long[1024];
        int n = 0;
        byte[] payload = new byte[w.payloadBytes()];
        long[][] keys = new long[w.txRowsMax()][2];
        // a rate-limited writer's transactions arrive at random, its share of the rate on average; it
        // waits for the next arrival when ahead of it and starts at once when behind (an open loop)
        SplittableRandom arrivals = new SplittableRandom(w.seed() * 7_000_003L + writer);
        double meanGapNanos = w.rateLimited() ? w.meanTxRows() * w.writers() * 1e9 / w.rowsPerSecond() : 0;
        long nextArrival = System.nanoTime() + (w.rateLimited() ? gap(arrivals, meanGapNanos) : 0);
        boolean batch = w.client() == ClientStyle.BATCH;
        try {
            while (true) {
                int size = w.txRowsMin() + random.nextInt(w.txRowsMax() - w.txRowsMin() + 1);
                long left = remaining.getAndAdd(-size);
                if (left <= 0) {
                    break;
                }
                size = (int) Math.min(size, left);
                if (w.rateLimited()) {
                    for (long wait; (wait = nextArrival - System.nanoTime()) > 0; ) {
                        java.util.concurrent.locks.LockSupport.parkNanos(wait);
                    }
                    nextArrival += gap(arrivals, meanGapNanos);
                }
                database.begin(c);
                int statementsInTx = w.multiRow() || batch ? 1 : size;
                int rowsPerStatement = w.multiRow() || batch ? size : 1;
                for (int i = 0; i < size; i++) {
                    maker.next(keys[i]);
                }
                if (w.multiRow() && !engineKey) {
                    Arrays.sort(keys, 0, size, key.keyType().words() == 2
                            ? (a, b) -> a[0] != b[0] ? Long.compareUnsigned(a[0], b[0]) : Long.compareUnsigned(a[1], b[1])
                            : (a, b) -> Long.compare(a[0], b[0]));
                }
                for (int s = 0; s < statementsInTx; s++) {
                    // a batch is one statement of one row, executed once per row in one call
                    int tuples = batch ? 1 : rowsPerStatement;
                    PreparedStatement ps = statements.get(tuples);
                    if (ps == null) {
                        ps = c.prepareStatement(database.insert(table, key, w, tuples));
                        statements.put(tuples, ps);
                    }
                    int p = 1;
                    for (int r = 0; r < rowsPerStatement; r++) {
                        long[] k = keys[s * rowsPerStatement + r];
                        if (!engineKey) {
                            p = database.bindKey(ps, p, key, k);
                        }
                        if (payload.length > 0) {
                            fill(random, payload);
                            ps.setBytes(p++, payload);
                        }
                        for (int i = 0; i < w.secondaryIndexes(); i++) {
                            ps.setLong(p++, random.nextLong());
                        }
                        if (batch) {
                            ps.addBatch();
                            p = 1;
                        }
                    }
                    if (turnstile != null) {
                        turnstile.await(writer);
                    }
                    long t0 = System.nanoTime();
                    if (batch) {
                        ps.executeBatch();
                    } else {
                        ps.executeUpdate();
                    }
                    long t1 = System.nanoTime();
                    if (n == lat.length) {
                        lat = Arrays.copyOf(lat, 2 * n);
                    }
                    lat[n++] = t1 - t0;
                    for (int r = 0; r < rowsPerStatement; r++) {
                        int slot = (int) order.getAndIncrement();
                        long[] k = keys[s * rowsPerStatement + r];
                        high[slot] = engineKey ? slot + 1L : k[0];
                        low[slot] = k[1];
                        writerOf[slot] = (byte) writer;
                        // a batch's rows go in one after another over the call: each at its share of it
                        middle[slot] = batch ? t0 + (long) ((t1 - t0) * (r + 0.5) / rowsPerStatement) : t0 + (t1 - t0) / 2;
                    }
                    if (turnstile != null) {
                        turnstile.pass();
                    }
                }
                database.commit(c);
            }
        } finally {
            for (PreparedStatement ps : statements.values()) {
                ps.close();
            }
        }
        counts[writer] = n;
        return lat;
    }

    /** An exponential draw of the given mean, nanoseconds. */
    private static long gap(SplittableRandom random, double meanNanos) {
        return (long) (-meanNanos * Math.log(1 - random.nextDouble()));
    }

    private static void fill(SplittableRandom random, byte[] bytes) {
        for (int i = 0; i < bytes.length; i += 8) {
            long v = random.nextLong();
            for (int j = 0; j < 8 && i + j < bytes.length; j++) {
                bytes[i + j] = (byte) (v >>> (8 * j));
            }
        }
    }

    /**
     * The writers' turns: one INSERT statement at a time, the next writer drawn from a seeded random
     * among those still writing. A writer that is not ready when its turn comes (making keys,
     * committing) is waited for, so the order depends on the seed alone.
     */
    static final class Turnstile {
        private final SplittableRandom random;
        private final boolean[] active;
        private int left;
        private int turn;

        Turnstile(int writers, long seed) {
            this.random = new SplittableRandom(seed ^ 0x7457_4e53_5449_4c45L);
            this.active = new boolean[writers];
            Arrays.fill(active, true);
            this.left = writers;
            this.turn = random.nextInt(writers);
        }

        /** @return whose turn it is, -1 once every writer has left */
        synchronized int current() {
            return turn;
        }

        synchronized void await(int writer) throws InterruptedException {
            while (turn != writer) {
                wait();
            }
        }

        synchronized void pass() {
            turn = pick();
            notifyAll();
        }

        synchronized void leave(int writer) {
            if (active[writer]) {
                active[writer] = false;
                left--;
                if (turn == writer) {
                    turn = pick();
                }
                notifyAll();
            }
        }

        private int pick() {
            if (left == 0) {
                return -1;
            }
            int k = random.nextInt(left);
            for (int i = 0; i < active.length; i++) {
                if (active[i] && k-- == 0) {
                    return i;
                }
            }
            throw new IllegalStateException("no writer left");
        }
    }
}
