package dev.idgen.segment.jdbc;

import dev.idgen.segment.SegmentGenerator;
import dev.idgen.segment.SegmentUnavailableException;
import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * The child JVM of {@link SegmentTwoProcessTest}: {@value #THREADS} threads each take
 * {@code perThread} numbers from one {@link SegmentGenerator} on a PostgreSQL table reached through
 * the parent's proxy, paced so that the run outlasts the parent's partition, and write them to
 * {@code <out>-<thread>} as big-endian longs. A call that fails with
 * {@link SegmentUnavailableException} is counted (with what the generator still held at that
 * moment) and retried; it is not a number. Prints {@code started}, then
 * {@code done <failures> <failuresWhileHolding> <message of the first failure>}.
 *
 * <p>Arguments: JDBC URL, table, counter name, step, numbers per thread, output prefix.
 */
public final class SegmentWriterChild {

    static final int THREADS = 4;
    /** Numbers a thread takes between two 1 ms pauses: about 40,000 per second per thread. */
    static final int PACE = 40;

    private SegmentWriterChild() {
    }

    public static void main(String[] args) throws Exception {
        String url = args[0];
        String table = args[1];
        String name = args[2];
        long step = Long.parseLong(args[3]);
        int perThread = Integer.parseInt(args[4]);
        String out = args[5];
        JdbcSegmentSource source = JdbcSegmentSource.builder(new SegmentDatabase.Direct(url, "postgres"))
                .table(table).queryTimeout(Duration.ofSeconds(2)).build();
        AtomicLong failures = new AtomicLong();
        AtomicLong failuresWhileHolding = new AtomicLong();
        AtomicReference<String> firstFailure = new AtomicReference<>("none");
        try (SegmentGenerator gen = SegmentGenerator.builder().source(source).name(name).step(step)
                .maxWait(Duration.ofMillis(500)).retryPause(Duration.ofMillis(100)).build()) {
            Thread[] threads = new Thread[THREADS];
            for (int t = 0; t < THREADS; t++) {
                String file = out + "-" + t;
                threads[t] = new Thread(() -> {
                    try (DataOutputStream o = new DataOutputStream(new BufferedOutputStream(
                            new FileOutputStream(file), 1 << 16))) {
                        int taken = 0;
                        while (taken < perThread) {
                            long n;
                            try {
                                n = gen.nextLong();
                            } catch (SegmentUnavailableException e) {
                                // the promise under test: an error only once every buffer is spent
                                if (gen.numbersLeft() > 0) {
                                    failuresWhileHolding.incrementAndGet();
                                }
                                failures.incrementAndGet();
                                firstFailure.compareAndSet("none", e.getMessage().replace('\n', ' '));
                                continue;
                            }
                            o.writeLong(n);
                            taken++;
                            if (taken % PACE == 0) {
                                LockSupport.parkNanos(1_000_000);
                            }
                        }
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }, "writer-" + t);
            }
            for (Thread t : threads) {
                t.start();
            }
            System.out.println("started");
            System.out.flush();
            for (Thread t : threads) {
                t.join();
            }
        }
        System.out.println("done " + failures.get() + " " + failuresWhileHolding.get() + " " + firstFailure.get());
        System.out.flush();
    }
}
