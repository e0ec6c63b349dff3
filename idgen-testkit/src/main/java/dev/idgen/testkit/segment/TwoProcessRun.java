package dev.idgen.testkit.segment;

import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Several child JVMs ({@link SegmentWriterMain}) × threads × numbers on one counter of a real
 * store, the store stopped and started again mid-run, every number written to files and checked:
 * each thread's numbers increase, and no number appears twice in all the children's files.
 *
 * <pre>{@code
 * TwoProcessReport r = TwoProcessRun.builder()
 *         .opener(RedisOpener.class, "redis://127.0.0.1:" + port, prefix)
 *         .name("orders").step(1000).perThread(200_000)
 *         .outage(outage, Duration.ofSeconds(3))
 *         .directory(Path.of("target"))
 *         .build().run();
 * }</pre>
 *
 * <p>The children run on this JVM's class path (and module path, if any), so the opener class must be
 * on it. A failed check throws {@link AssertionError} naming the child, the thread or the number.
 */
public final class TwoProcessRun {

    private final String opener;
    private final List<String> openerArgs;
    private final String name;
    private final long step;
    private final int perThread;
    private final int threads;
    private final int processes;
    private final int pace;
    private final Duration maxWait;
    private final Duration warmUp;
    private final StoreOutage outage;
    private final Duration down;
    private final Path directory;
    private final Duration limit;

    private TwoProcessRun(Builder b) {
        this.opener = b.opener;
        this.openerArgs = b.openerArgs;
        this.name = b.name;
        this.step = b.step;
        this.perThread = b.perThread;
        this.threads = b.threads;
        this.processes = b.processes;
        this.pace = b.pace;
        this.maxWait = b.maxWait;
        this.warmUp = b.warmUp;
        this.outage = b.outage;
        this.down = b.down;
        this.directory = b.directory;
        this.limit = b.limit;
    }

    /** {@return a builder: 2 processes, 4 threads, step 1000, 40 numbers a millisecond a thread, max wait 500 ms} */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Starts the children, waits {@code warmUp}, stops the store for {@code down} and starts it
     * again, waits for the children, then reads and checks every number.
     *
     * @return the figures
     * @throws AssertionError if a child fails or a check does
     * @throws Exception if the outage or the files fail
     */
    public TwoProcessReport run() throws Exception {
        Files.createDirectories(directory);
        Path dir = Files.createTempDirectory(directory, "segment-two-process-");
        Process[] children = new Process[processes];
        List<Long> failures = new ArrayList<>();
        List<Long> whileHolding = new ArrayList<>();
        List<String> first = new ArrayList<>();
        long wall;
        try {
            @SuppressWarnings("unchecked")
            BlockingQueue<String>[] lines = new BlockingQueue[processes];
            String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
            long start = System.nanoTime();
            for (int p = 0; p < processes; p++) {
                List<String> cmd = new ArrayList<>(List.of(java, "-Xmx256m", "-cp", childClassPath(),
                        SegmentWriterMain.class.getName(), opener, name, Long.toString(step),
                        Integer.toString(perThread), Integer.toString(threads), Integer.toString(pace),
                        Long.toString(maxWait.toMillis()), dir.resolve("p" + p).toString()));
                cmd.addAll(openerArgs);
                children[p] = new ProcessBuilder(cmd).redirectError(dir.resolve("p" + p + ".log").toFile()).start();
                lines[p] = reader(children[p]);
            }
            for (int p = 0; p < processes; p++) {
                String started = lines[p].poll(60, TimeUnit.SECONDS);
                check("started".equals(started), "child " + p + " did not start: " + started + log(dir, p));
            }
            Thread.sleep(warmUp.toMillis());
            if (outage != null) {
                outage.stop();
                Thread.sleep(down.toMillis());
                outage.start();
            }
            long end = System.nanoTime() + limit.toNanos();
            for (int p = 0; p < processes; p++) {
                String done = lines[p].poll(Math.max(1, end - System.nanoTime()), TimeUnit.NANOSECONDS);
                check(done != null && done.startsWith("done "), "child " + p + " did not finish within " + limit
                        + ": " + done + log(dir, p));
                check(children[p].waitFor(30, TimeUnit.SECONDS) && children[p].exitValue() == 0,
                        "child " + p + " exit code" + log(dir, p));
                String[] parts = done.split(" ", 4);
                failures.add(Long.parseLong(parts[1]));
                whileHolding.add(Long.parseLong(parts[2]));
                first.add(parts.length > 3 ? parts[3] : "");
            }
            wall = (System.nanoTime() - start) / 1_000_000;
            long[] all = readAll(dir);
            Arrays.sort(all);
            for (int i = 1; i < all.length; i++) {
                check(all[i] != all[i - 1], "number " + all[i] + " was handed out twice");
            }
            return new TwoProcessReport(all.length, all.length, all[0], all[all.length - 1], failures, whileHolding,
                    first, wall);
        } finally {
            for (Process c : children) {
                if (c != null && c.isAlive()) {
                    c.destroyForcibly();
                }
            }
            deleteQuietly(dir);
        }
    }

    private long[] readAll(Path dir) throws IOException {
        long[] all = new long[Math.multiplyExact(Math.multiplyExact(processes, threads), perThread)];
        int k = 0;
        for (int p = 0; p < processes; p++) {
            for (int t = 0; t < threads; t++) {
                long previous = Long.MIN_VALUE;
                int count = 0;
                try (DataInputStream in = new DataInputStream(new BufferedInputStream(
                        Files.newInputStream(dir.resolve("p" + p + "-" + t)), 1 << 16))) {
                    while (true) {
                        long n;
                        try {
                            n = in.readLong();
                        } catch (EOFException endOfFile) {
                            break;
                        }
                        check(n > previous, "process " + p + " thread " + t + ": " + n + " after " + previous);
                        check(count < perThread, "process " + p + " thread " + t + " wrote more than " + perThread);
                        previous = n;
                        all[k++] = n;
                        count++;
                    }
                }
                check(count == perThread, "process " + p + " thread " + t + " wrote " + count + " numbers, not "
                        + perThread);
            }
        }
        return all;
    }

    private static void check(boolean ok, String message) {
        if (!ok) {
            throw new AssertionError(message);
        }
    }

    private static String log(Path dir, int p) {
        try {
            String s = Files.readString(dir.resolve("p" + p + ".log"));
            return s.isEmpty() ? "" : "; its stderr: " + (s.length() > 3000 ? s.substring(s.length() - 3000) : s);
        } catch (IOException e) {
            return "";
        }
    }

    /** Surefire may put modules on the module path: the child gets both as its class path. */
    private static String childClassPath() {
        String modules = System.getProperty("jdk.module.path", "");
        String classes = System.getProperty("java.class.path", "");
        return modules.isEmpty() ? classes : modules + File.pathSeparator + classes;
    }

    private static BlockingQueue<String> reader(Process p) {
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    lines.add(line);
                }
            } catch (IOException e) {
                lines.add("error " + e);
            }
        }, "two-process-reader");
        t.setDaemon(true);
        t.start();
        return lines;
    }

    private static void deleteQuietly(Path dir) {
        File[] files = dir.toFile().listFiles();
        if (files != null) {
            for (File f : files) {
                f.delete();
            }
        }
        dir.toFile().delete();
    }

    /** Configures a {@link TwoProcessRun}. */
    public static final class Builder {
        private String opener;
        private List<String> openerArgs = List.of();
        private String name = "orders";
        private long step = 1000;
        private int perThread = 200_000;
        private int threads = 4;
        private int processes = 2;
        private int pace = 40;
        private Duration maxWait = Duration.ofMillis(500);
        private Duration warmUp = Duration.ofSeconds(1);
        private StoreOutage outage;
        private Duration down = Duration.ofSeconds(3);
        private Path directory = Path.of("target");
        private Duration limit = Duration.ofMinutes(5);

        private Builder() {
        }

        /**
         * @param opener how the children reach the store; public, with a public no-argument constructor
         * @param args its arguments, passed on the child's command line
         * @return this
         */
        public Builder opener(Class<? extends SegmentStoreOpener> opener, String... args) {
            this.opener = Objects.requireNonNull(opener, "opener").getName();
            this.openerArgs = List.of(args);
            return this;
        }

        /**
         * @param name the counter all children take from; default {@code orders}
         * @return this
         */
        public Builder name(String name) {
            this.name = Objects.requireNonNull(name, "name");
            return this;
        }

        /**
         * @param step numbers per range, at least 1; default 1000
         * @return this
         * @throws IllegalArgumentException if below 1
         */
        public Builder step(long step) {
            this.step = positive("step", step);
            return this;
        }

        /**
         * @param perThread numbers each thread takes, at least 1; default 200,000
         * @return this
         * @throws IllegalArgumentException if below 1
         */
        public Builder perThread(int perThread) {
            this.perThread = (int) positive("perThread", perThread);
            return this;
        }

        /**
         * @param processes child JVMs, at least 1; default 2
         * @param threads threads in each, at least 1; default 4
         * @return this
         * @throws IllegalArgumentException if either is below 1
         */
        public Builder shape(int processes, int threads) {
            this.processes = (int) positive("processes", processes);
            this.threads = (int) positive("threads", threads);
            return this;
        }

        /**
         * @param numbersPerPause how many numbers a thread takes between two 1 ms pauses, at least 1;
         *     default 40 (about 40,000 a second a thread)
         * @return this
         * @throws IllegalArgumentException if below 1
         */
        public Builder pace(int numbersPerPause) {
            this.pace = (int) positive("pace", numbersPerPause);
            return this;
        }

        /**
         * @param maxWait how long a caller waits for the store once every range is spent; default 500 ms
         * @return this
         */
        public Builder maxWait(Duration maxWait) {
            this.maxWait = Objects.requireNonNull(maxWait, "maxWait");
            return this;
        }

        /**
         * @param warmUp how long the children count before the outage; default 1 s
         * @return this
         */
        public Builder warmUp(Duration warmUp) {
            this.warmUp = Objects.requireNonNull(warmUp, "warmUp");
            return this;
        }

        /**
         * @param outage what stops and starts the store; none by default (a run without an outage)
         * @param down how long the store stays stopped
         * @return this
         */
        public Builder outage(StoreOutage outage, Duration down) {
            this.outage = Objects.requireNonNull(outage, "outage");
            this.down = Objects.requireNonNull(down, "down");
            return this;
        }

        /**
         * @param directory where the numbers' files go (a fresh folder inside, deleted afterwards);
         *     default {@code target}
         * @return this
         */
        public Builder directory(Path directory) {
            this.directory = Objects.requireNonNull(directory, "directory");
            return this;
        }

        /**
         * @param limit how long the children may take after the outage; default 5 min
         * @return this
         */
        public Builder limit(Duration limit) {
            this.limit = Objects.requireNonNull(limit, "limit");
            return this;
        }

        /**
         * {@return the run}
         *
         * @throws IllegalStateException if no opener was given
         */
        public TwoProcessRun build() {
            if (opener == null) {
                throw new IllegalStateException("no opener: call opener(Class, String...)");
            }
            return new TwoProcessRun(this);
        }

        private static long positive(String what, long v) {
            if (v < 1) {
                throw new IllegalArgumentException(what + " " + v + " is out of range; expected 1 or more");
            }
            return v;
        }
    }
}
