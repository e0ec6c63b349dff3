package dev.idgen.random;

import dev.idgen.restore.CracHook;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.LongSupplier;

/**
 * Tells striped sources when the state they hold may have been copied into another process (a CRaC
 * checkpoint and restore, a VM snapshot or clone), so that every stripe drops its buffer and re-keys
 * from fresh entropy before it hands out another byte.
 *
 * <p>The answer is an <em>epoch</em>: a stripe remembers the epoch of its key and compares it with
 * {@link #epoch()} on every call (one volatile read; the only cost on the per-call path). The epoch
 * moves on {@link #signal()}, which comes from:
 * <ul>
 *   <li>the CRaC callbacks, before a checkpoint and after a restore ({@link CracHook}), for the
 *       guard of this JVM ({@link #jvm()});</li>
 *   <li>{@link #check()}, which each stripe runs before every 64 longs it hands out (512 bytes; so
 *       also before each 4 KiB refill), two clock reads per 64 longs: it fires when the offset between the wall clock and the monotonic clock has moved by more than
 *       {@link #CLOCK_JUMP_MILLIS} since the last check (a restored image resumes with a wall clock
 *       far from where its monotonic clock says it should be), or when the process id has changed
 *       (read at most once per {@link #PID_CHECK_NANOS} of monotonic time, since it costs a system
 *       call).</li>
 * </ul>
 * A false alarm (an NTP step, an operator setting the clock) costs one re-key per stripe, nothing
 * more; a clone with no signal at all (a live VM fork that keeps both clocks) parts at each stripe's
 * next 64-long block, whose longs are XOR the monotonic clock's reading at its start (unless both
 * copies read the same nanosecond there), and is unpredictable again after the fresh bytes mixed
 * into the next re-key.
 *
 * <p>The clock reads here serve entropy hygiene only. No ID ever takes its time from them: generators
 * read time only through their injected {@code InstantSource}.
 */
final class SnapshotGuard {

    /** How far the wall clock may move against the monotonic clock between two checks. */
    static final long CLOCK_JUMP_MILLIS = 100;
    /** The least monotonic time between two reads of the process id: 10 ms. */
    static final long PID_CHECK_NANOS = 10_000_000L;
    /** What a process-id supplier returns when it cannot tell. */
    static final long NO_PID = -1;

    private static final VarHandle EPOCH;
    private static final Path PROC_SELF = Path.of("/proc/self");

    static {
        try {
            EPOCH = MethodHandles.lookup().findVarHandle(SnapshotGuard.class, "epoch", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The guard of this JVM, registered with CRaC when its API is there at run time. */
    private static final class Jvm {
        // entropy hygiene only, never an ID's time (see the class comment)
        static final SnapshotGuard GUARD =
                new SnapshotGuard(System::currentTimeMillis, System::nanoTime, processIdSource());
        /** CRaC holds resources weakly: this reference keeps ours for the life of the JVM. */
        static final Object CRAC_RESOURCE = CracHook.register("RandomSource re-key", GUARD::signal, GUARD::signal);

        private Jvm() {
        }
    }

    private final LongSupplier wallMillis;
    private final LongSupplier monotonicNanos;
    private final LongSupplier processId;
    private volatile int epoch;
    private volatile long clockOffset;
    private volatile long pid;
    private volatile long pidCheckedAt;

    /**
     * @param wallMillis the wall clock, in milliseconds
     * @param monotonicNanos a monotonic clock, in nanoseconds
     * @param processId the process id, or {@link #NO_PID} when it cannot be read
     */
    SnapshotGuard(LongSupplier wallMillis, LongSupplier monotonicNanos, LongSupplier processId) {
        this.wallMillis = wallMillis;
        this.monotonicNanos = monotonicNanos;
        this.processId = processId;
        long now = monotonicNanos.getAsLong();
        this.clockOffset = clockOffset(now);
        this.pid = processId.getAsLong();
        this.pidCheckedAt = now;
    }

    /**
     * This guard as a snapshot restored into another process holds it: every field as it is now
     * (epoch, the last clock offset, the last process id and when it was read), while the clocks and
     * the process id are those of the process the image now runs in. For the tests, which run the
     * original and the copy side by side; nothing in production copies a guard.
     *
     * @param wallMillis the copy's wall clock
     * @param monotonicNanos the copy's monotonic clock
     * @param processId the copy's process id
     * @return the copy
     */
    SnapshotGuard restoredAs(LongSupplier wallMillis, LongSupplier monotonicNanos, LongSupplier processId) {
        return new SnapshotGuard(this, wallMillis, monotonicNanos, processId);
    }

    private SnapshotGuard(SnapshotGuard image, LongSupplier wallMillis, LongSupplier monotonicNanos,
            LongSupplier processId) {
        this.wallMillis = wallMillis;
        this.monotonicNanos = monotonicNanos;
        this.processId = processId;
        this.epoch = image.epoch;
        this.clockOffset = image.clockOffset;
        this.pid = image.pid;
        this.pidCheckedAt = image.pidCheckedAt;
    }

    /** @return the guard of this JVM (registering the CRaC resource on first use) */
    static SnapshotGuard jvm() {
        return Jvm.GUARD;
    }

    /** @return the CRaC resource of this JVM's guard, or null when no CRaC API is at hand */
    static Object jvmCracResource() {
        return Jvm.CRAC_RESOURCE;
    }

    /** @return the monotonic clock, in ns: what a stripe mixes into its next 64 longs (entropy hygiene only) */
    long monotonicNanos() {
        return monotonicNanos.getAsLong();
    }

    /** @return the current epoch; a stripe keyed in another one must re-key before its next byte */
    int epoch() {
        return epoch;
    }

    /** Moves the epoch on: every stripe re-keys from fresh entropy before its next byte. */
    void signal() {
        EPOCH.getAndAdd(this, 1);
    }

    /**
     * Looks for a sign of a copy and {@linkplain #signal() signals} when it finds one. Called by a
     * stripe's holder every 64 longs; concurrent calls are fine (a sign seen twice moves the epoch
     * twice, which costs nothing more).
     *
     * @return the epoch after the check
     */
    int check() {
        return check(monotonicNanos.getAsLong());
    }

    /**
     * {@link #check()} with the monotonic clock already read by the caller, who also uses the reading.
     *
     * @param now the monotonic clock, in ns, read just before
     * @return the epoch after the check
     */
    int check(long now) {
        long offset = clockOffset(now);
        long before = clockOffset;
        clockOffset = offset;
        boolean copied = Math.abs(offset - before) > CLOCK_JUMP_MILLIS;
        if (now - pidCheckedAt >= PID_CHECK_NANOS) {
            pidCheckedAt = now;
            long id = processId.getAsLong();
            copied |= id != pid;
            pid = id;
        }
        if (copied) {
            signal();
        }
        return epoch;
    }

    /** Wall time minus monotonic time, in ms: constant while neither clock is stepped or restored. */
    private long clockOffset(long monotonicNow) {
        return wallMillis.getAsLong() - Math.floorDiv(monotonicNow, 1_000_000L);
    }

    /**
     * Where this process's id is read from. {@code ProcessHandle.current().pid()} cannot serve: the
     * JDK reads it once at start and keeps it ({@code ProcessHandleImpl.current}), so a restored
     * process would still report the old one. On Linux {@code /proc/self} names the live id; elsewhere
     * there is no cheap live source and the check is left out.
     */
    private static LongSupplier processIdSource() {
        return readProcSelf() == NO_PID ? () -> NO_PID : SnapshotGuard::readProcSelf;
    }

    static long readProcSelf() {
        try {
            return Long.parseLong(Files.readSymbolicLink(PROC_SELF).toString());
        } catch (IOException | RuntimeException e) {
            return NO_PID;
        }
    }
}
