package dev.idgen.lease;

import java.time.Clock;
import java.time.InstantSource;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * Notices that this process may no longer be the one that made its claim: a copy restored from a
 * checkpoint or snapshot (CRaC, Lambda SnapStart, a VM template) carries the claim, its fence and its
 * generator's state, and so does every other copy of the same image. Two signals, read by the
 * lease's own thread before each write:
 *
 * <ul>
 *   <li>the process id changed since the last look (a restored image usually runs under a new one);</li>
 *   <li>the wall clock moved against the monotonic clock by more than a bound between two looks:
 *       a process that was stopped keeps both in step (a {@code SIGSTOP} is not a restore, and the
 *       fence handles it by time), but an image restored later resumes its monotonic clock where it
 *       left off while the wall clock shows the time that passed.</li>
 * </ul>
 *
 * A step of the wall clock larger than the bound (an NTP step) is taken for a restore too: the
 * lease then proves its claim once more before it opens the fence, which costs a renewal, never an
 * ID. A clone that keeps both the process id and the clocks (a VM cloned while running) shows no
 * signal; its bound is the lease's nonce rotation ({@code docs/lease-safety.md}). Thread-safe.
 */
public final class IncarnationWatch {

    private final LongSupplier processId;
    private final InstantSource wall;
    private final LongSupplier nanoTime;
    private final long jumpMillis;
    private long seenProcessId;
    /** Wall minus monotonic time at the last look, in milliseconds. */
    private long seenOffsetMillis;

    /**
     * @param processId this process's id, as {@code ProcessHandle.current()::pid}
     * @param wall the wall clock (the generator's)
     * @param nanoTime a monotonic clock, as {@code System::nanoTime}
     * @param jumpMillis how far the two clocks may drift apart between two looks, 1 or more
     * @throws IllegalArgumentException if {@code jumpMillis} is below 1
     */
    public IncarnationWatch(LongSupplier processId, InstantSource wall, LongSupplier nanoTime, long jumpMillis) {
        if (jumpMillis < 1) {
            throw new IllegalArgumentException("jump bound " + jumpMillis + " ms is outside the allowed range 1.."
                    + Long.MAX_VALUE + " ms");
        }
        this.processId = Objects.requireNonNull(processId, "processId");
        this.wall = Objects.requireNonNull(wall, "wall");
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
        this.jumpMillis = jumpMillis;
        this.seenProcessId = processId.getAsLong();
        this.seenOffsetMillis = offsetNow();
    }

    /**
     * A watch on this JVM's process id and, when {@code wall} is the system clock, on the system
     * clock against {@code System.nanoTime()}. An injected clock (a test's, or one a user drives)
     * need not move with real time, so against it only the process id is watched.
     *
     * @param wall the wall clock (the generator's)
     * @param jumpMillis how far the clocks may drift apart between two looks
     * @return the watch
     */
    public static IncarnationWatch ofThisProcess(InstantSource wall, long jumpMillis) {
        return new IncarnationWatch(() -> ProcessHandle.current().pid(), wall, System::nanoTime,
                isSystemClock(wall) ? jumpMillis : Long.MAX_VALUE);
    }

    /** {@return whether {@code wall} is the system clock, in any zone: the one clock that moves with the monotonic one} */
    static boolean isSystemClock(InstantSource wall) {
        return wall.equals(InstantSource.system()) || wall instanceof Clock c && c.equals(Clock.system(c.getZone()));
    }

    /**
     * Looks again, and takes the readings as the new baseline.
     *
     * @return why this may be another incarnation, or {@code null} when nothing changed
     */
    public synchronized String check() {
        long pid = processId.getAsLong();
        long offset = offsetNow();
        long drift = offset - seenOffsetMillis;
        long pidBefore = seenProcessId;
        seenProcessId = pid;
        seenOffsetMillis = offset;
        if (pid != pidBefore) {
            return "the process id changed from " + pidBefore + " to " + pid;
        }
        if (Math.abs(drift) > jumpMillis) {
            return "the wall clock moved " + drift + " ms against the monotonic clock since the last look"
                    + " (more than " + jumpMillis + " ms)";
        }
        return null;
    }

    private long offsetNow() {
        return wall.millis() - Math.floorDiv(nanoTime.getAsLong(), 1_000_000L);
    }
}
