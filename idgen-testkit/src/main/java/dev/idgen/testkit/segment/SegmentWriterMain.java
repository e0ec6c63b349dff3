package dev.idgen.testkit.segment;

import dev.idgen.segment.SegmentGenerator;
import dev.idgen.segment.spi.SegmentSource;
import dev.idgen.segment.SegmentUnavailableException;
import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * The child JVM of {@link TwoProcessRun}: its threads each take a fixed count of numbers from one
 * {@link SegmentGenerator} and write them to {@code <out>-<thread>} as big-endian longs, pausing
 * 1 ms after every {@code pace} numbers so that the run lasts through the parent's outage. A call
 * that fails with {@link SegmentUnavailableException} is counted, with whether the generator still
 * held numbers from before the call (numbers from a grant that landed after the call began, the
 * store just back, do not count), and tried again; it is not a number.
 *
 * <p>Prints {@code started} once counting begins, then
 * {@code done <failures> <failuresWhileHolding> <first failure's message>}, and exits 0 (a store
 * client's threads do not keep it alive).
 *
 * <p>Arguments: opener class, counter name, step, numbers per thread, threads, pace, max wait in
 * ms, output prefix, then the opener's own arguments.
 */
public final class SegmentWriterMain {

    private SegmentWriterMain() {
    }

    /**
     * Runs the child.
     *
     * @param args see the class comment
     * @throws Exception if the store cannot be opened or a file cannot be written
     */
    public static void main(String[] args) throws Exception {
        if (args.length < 8) {
            throw new IllegalArgumentException("expected opener, name, step, per-thread, threads, pace, max-wait-ms,"
                    + " out prefix and the opener's arguments; got " + Arrays.toString(args));
        }
        SegmentStoreOpener opener = (SegmentStoreOpener) Class.forName(args[0]).getConstructor().newInstance();
        String name = args[1];
        long step = Long.parseLong(args[2]);
        int perThread = Integer.parseInt(args[3]);
        int threadCount = Integer.parseInt(args[4]);
        int pace = Integer.parseInt(args[5]);
        Duration maxWait = Duration.ofMillis(Long.parseLong(args[6]));
        String out = args[7];
        List<String> openerArgs = List.of(args).subList(8, args.length);
        SegmentSource source = opener.open(openerArgs);

        AtomicLong failures = new AtomicLong();
        AtomicLong failuresWhileHolding = new AtomicLong();
        AtomicReference<String> firstFailure = new AtomicReference<>("none");
        try (SegmentGenerator gen = SegmentGenerator.builder().source(source).name(name).step(step)
                .maxWait(maxWait).retryPause(Duration.ofMillis(100)).build()) {
            Thread[] threads = new Thread[threadCount];
            for (int t = 0; t < threadCount; t++) {
                String file = out + "-" + t;
                threads[t] = new Thread(() -> count(gen, perThread, pace, file, failures, failuresWhileHolding,
                        firstFailure), "writer-" + t);
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
        System.exit(0);
    }

    private static void count(SegmentGenerator gen, int perThread, int pace, String file, AtomicLong failures,
            AtomicLong failuresWhileHolding, AtomicReference<String> firstFailure) {
        try (DataOutputStream o = new DataOutputStream(new BufferedOutputStream(new FileOutputStream(file), 1 << 16))) {
            int taken = 0;
            while (taken < perThread) {
                long n;
                long grantsBefore = gen.fetches();
                try {
                    n = gen.nextLong();
                } catch (SegmentUnavailableException e) {
                    // the promise under test: an error only once every buffer is spent. A grant
                    // counts in fetches() before it is linked where numbersLeft() sees it, so numbers
                    // left with no grant since the call began were there when it failed; numbers from
                    // a grant that landed after the failure (the store just came back) are not
                    if (gen.numbersLeft() > 0 && gen.fetches() == grantsBefore) {
                        failuresWhileHolding.incrementAndGet();
                    }
                    failures.incrementAndGet();
                    firstFailure.compareAndSet("none", String.valueOf(e.getMessage()).replace('\n', ' '));
                    continue;
                }
                o.writeLong(n);
                taken++;
                if (taken % pace == 0) {
                    LockSupport.parkNanos(1_000_000);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
