package dev.idgen.random;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.idgen.uuid.UuidV4Generator;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Copies of one process made the way a snapshot makes them: the source's stripes (buffer, position,
 * stamp, epoch), its guard (epoch, last clock offset, last process id) and its entropy copied field
 * by field ({@link StripedRandom#restoredAs}, {@link SnapshotGuard#restoredAs},
 * {@link ImageEntropy#restoredOn}), then run beside the original, which runs on as the usual clone
 * leaves it: with no signal. The entropy is the worst case, a generator whose state is in the heap
 * (as the JDK's {@code DRBG}): a copy gives the image's bytes until it is reseeded.
 *
 * <p>What each test counts is the longs (or UUIDv4s) handed out after the restore by both the copy
 * and the original (or by two copies): after a signal, none; with only a sign that a look finds (a
 * clock jump, a new process id), the rest of one 64-long block; with no sign, the rest of each
 * stripe's block. Nothing sleeps: the clocks are set by hand.
 */
class SnapshotCopyTest {

    private static final long SEED = 0x5EED_C0FFL;
    private static final int STRIPES = 4;
    private static final int LONGS_PER_REFILL = StripedRandom.BUFFER_BYTES / Long.BYTES;
    /** Longs each stripe hands out before the snapshot: mid-buffer, mid-block. */
    private static final int BEFORE = 3 * LONGS_PER_REFILL + 100;
    /** Longs left in the 64-long block the snapshot falls in: 28. */
    private static final int LEFT_IN_BLOCK = StripedRandom.CHECK_LONGS - BEFORE % StripedRandom.CHECK_LONGS;
    /** Longs each stripe hands out after the restore, in each process: eight refills. */
    private static final int AFTER = 8 * LONGS_PER_REFILL;

    /** One process: its clocks, entropy, guard and a source of four stripes. */
    private static final class Process {
        final FixedClocks clocks;
        final ImageEntropy entropy;
        final SnapshotGuard guard;
        final StripedRandom source;

        /** A process started afresh, {@link #BEFORE} longs into each stripe. */
        Process() {
            clocks = new FixedClocks();
            entropy = new ImageEntropy(SEED);
            guard = clocks.guard();
            source = new StripedRandom(STRIPES, () -> new StripedRandom.FromSecureRandom(entropy), guard, "original");
            for (int s = 0; s < STRIPES; s++) {
                for (int i = 0; i < BEFORE; i++) {
                    source.nextLongFrom(s);
                }
            }
        }

        /** The image restored on another host: the same state; that host's clocks and, once reseeded, entropy. */
        Process(Process image, long hostSeed) {
            clocks = new FixedClocks();
            clocks.wallMillis = image.clocks.wallMillis;
            clocks.monotonicNanos = image.clocks.monotonicNanos;
            clocks.pid = image.clocks.pid;
            entropy = image.entropy.restoredOn(hostSeed);
            guard = image.guard.restoredAs(() -> clocks.wallMillis, () -> clocks.monotonicNanos, () -> clocks.pid);
            source = image.source.restoredAs(guard, refill -> new StripedRandom.FromSecureRandom(entropy));
        }

        /** Time passes with both clocks in step, as on a host where nothing was restored. */
        void runOn(long nanos) {
            clocks.monotonicNanos += nanos;
            clocks.wallMillis += nanos / 1_000_000;
        }

        List<Long> longsFrom(int stripe, int count) {
            List<Long> out = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                out.add(source.nextLongFrom(stripe));
            }
            return out;
        }
    }

    /** How many values both lists hold. */
    private static <T> int shared(List<T> a, List<T> b) {
        Set<T> seen = new HashSet<>(a);
        int both = 0;
        for (T t : b) {
            both += seen.contains(t) ? 1 : 0;
        }
        return both;
    }

    private static List<UUID> uuidV4s(Process p, int count) {
        UuidV4Generator ids = UuidV4Generator.builder().randomness(p.source).build();
        List<UUID> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            out.add(ids.next());
        }
        return out;
    }

    @Test
    void aCopySignalledByItsRestoreHookSharesNothingWithTheOriginalRunningOn() {
        Process original = new Process();
        Process copy = new Process(original, SEED + 1);
        original.runOn(1_000);
        copy.runOn(5_000_000_000L); // started 5 s later, its clocks in step: no sign, the hook alone
        copy.guard.signal(); // the CRaC afterRestore callback
        for (int s = 0; s < STRIPES; s++) {
            assertEquals(0, shared(copy.longsFrom(s, AFTER), original.longsFrom(s, AFTER)), "seed " + SEED + ", stripe " + s);
        }
        assertEquals(0, shared(uuidV4s(copy, AFTER), uuidV4s(original, AFTER)), "seed " + SEED + ": UUIDv4s");
        assertEquals(STRIPES, copy.entropy.reseeds, "every stripe asked its entropy to reseed before its next byte");
        assertEquals(0, original.entropy.reseeds);
    }

    @Test
    void twoCopiesOfOneImageBothSignalledShareNothingWithEachOtherOrTheOriginal() {
        Process original = new Process();
        Process first = new Process(original, SEED + 1);
        Process second = new Process(original, SEED + 2);
        first.guard.signal();
        second.guard.signal();
        // the copies restored at the same instant of the same clocks: only the reseed parts them
        for (int s = 0; s < STRIPES; s++) {
            List<Long> a = first.longsFrom(s, AFTER);
            List<Long> b = second.longsFrom(s, AFTER);
            List<Long> o = original.longsFrom(s, AFTER);
            assertEquals(0, shared(a, b), "seed " + SEED + ", stripe " + s + ": the two copies");
            assertEquals(0, shared(a, o) + shared(b, o), "seed " + SEED + ", stripe " + s + ": a copy and the original");
        }
    }

    @Test
    void theCheckpointSignalTakenBeforeTheImageCoversCallsThatRaceTheRestoreHook() {
        Process original = new Process();
        original.guard.signal(); // CRaC beforeCheckpoint; no call between it and the image
        Process first = new Process(original, SEED + 1);
        Process second = new Process(original, SEED + 2);
        // calls on the copies before their afterRestore callbacks have run
        for (int s = 0; s < STRIPES; s++) {
            assertEquals(0, shared(first.longsFrom(s, AFTER), second.longsFrom(s, AFTER)), "seed " + SEED + ", stripe " + s);
        }
    }

    @Test
    void aCallBetweenTheCheckpointSignalAndTheImageIsSharedUntilTheRestoreHook() {
        // the one gap a hook leaves, and why the docs ask for no calls while the image is taken
        Process original = new Process();
        original.guard.signal(); // beforeCheckpoint
        original.source.nextLongFrom(0); // a call in the window: stripe 0 re-keys in the original
        Process first = new Process(original, SEED + 1);
        Process second = new Process(original, SEED + 2);
        assertEquals(LEFT_IN_BLOCK + 1, shared(first.longsFrom(0, LEFT_IN_BLOCK + 1), second.longsFrom(0, LEFT_IN_BLOCK + 1)),
                "seed " + SEED + ": before their hooks run, the copies hand out the image's new key alike");
        first.guard.signal();
        second.guard.signal();
        assertEquals(0, shared(first.longsFrom(0, AFTER), second.longsFrom(0, AFTER)), "seed " + SEED + ": after the hooks, nothing");
    }

    @Test
    void aCopyNoticedByItsWallClockSharesTheRestOfOneBlockThenNothing() {
        Process original = new Process();
        Process copy = new Process(original, SEED + 1);
        original.runOn(1_000);
        copy.clocks.wallMillis += 30_000; // a VM restored 30 s after its snapshot; its monotonic clock resumes
        assertEquals(LEFT_IN_BLOCK, shared(copy.longsFrom(0, AFTER), original.longsFrom(0, AFTER)),
                "seed " + SEED + ": stripe 0 hands out the rest of its block before its look finds the jump");
        for (int s = 1; s < STRIPES; s++) {
            assertEquals(0, shared(copy.longsFrom(s, AFTER), original.longsFrom(s, AFTER)),
                    "seed " + SEED + ", stripe " + s + ": the epoch had moved before its first long");
        }
    }

    @Test
    void aCopyNoticedByItsWallClockSharesAtMostTheRestOfABlockOfUuidV4s() {
        Process original = new Process();
        Process copy = new Process(original, SEED + 1);
        original.runOn(1_000);
        copy.clocks.wallMillis += 30_000;
        assertEquals(LEFT_IN_BLOCK / 2, shared(uuidV4s(copy, AFTER), uuidV4s(original, AFTER)), "seed " + SEED);
    }

    @Test
    void aCopyNoticedByANewProcessIdSharesTheRestOfOneBlockThenNothing() {
        Process original = new Process();
        Process copy = new Process(original, SEED + 1);
        original.runOn(1_000);
        copy.runOn(SnapshotGuard.PID_CHECK_NANOS); // clocks in step; the pid is read again at the next look
        copy.clocks.pid = 9001;
        assertEquals(LEFT_IN_BLOCK, shared(copy.longsFrom(0, AFTER), original.longsFrom(0, AFTER)), "seed " + SEED);
        for (int s = 1; s < STRIPES; s++) {
            assertEquals(0, shared(copy.longsFrom(s, AFTER), original.longsFrom(s, AFTER)), "seed " + SEED + ", stripe " + s);
        }
        assertEquals(STRIPES, copy.entropy.reseeds);
    }

    @Test
    void aCopyThatSeesNoSignSharesTheRestOfEachStripesBlockThenNothing() {
        // a live VM fork: same pid, clocks in step, but each copy reaches its next block at its own nanosecond
        Process original = new Process();
        Process copy = new Process(original, SEED + 1);
        original.runOn(1_000);
        copy.runOn(1_250);
        for (int s = 0; s < STRIPES; s++) {
            assertEquals(LEFT_IN_BLOCK, shared(copy.longsFrom(s, AFTER), original.longsFrom(s, AFTER)),
                    "seed " + SEED + ", stripe " + s);
        }
        assertEquals(0, copy.entropy.reseeds, "no sign, no reseed: only the stamps part the copies");
    }
}
