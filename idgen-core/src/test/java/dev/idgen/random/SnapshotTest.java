package dev.idgen.random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.restore.CracHook;

import java.io.ByteArrayOutputStream;
import java.io.NotSerializableException;
import java.io.ObjectOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What two processes restored from one snapshot hand out.
 *
 * <p>A snapshot is simulated by <em>twins</em>: two processes fed the same inputs (entropy, clocks,
 * process id, calls) up to the snapshot point hold the same state, since everything a source holds is
 * a function of those inputs; {@link #snapshot(int)} checks that they agree call for call up to that
 * point. After it, each twin reads different entropy, as two restored copies read different bytes
 * from their kernels. (A method that copies a keystream would need its live key kept outside the
 * JDK's {@code Cipher}, which key erasure forbids.)
 */
class SnapshotTest {

    private static final long SEED = 0x5EED_C0FFL;
    private static final int LONGS_PER_REFILL = StripedRandom.BUFFER_BYTES / Long.BYTES;
    private static final int LONGS_PER_KEY = LONGS_PER_REFILL * AesCtrKeystream.REFILLS_PER_KEY;
    /** Longs each stripe hands out before the snapshot: mid-buffer and mid-key. */
    private static final int BEFORE = 3 * LONGS_PER_REFILL + 100;
    private static final int LEFT_IN_BUFFER = LONGS_PER_REFILL - BEFORE % LONGS_PER_REFILL;
    /** Longs left in the 64-long block the snapshot falls in: 28. */
    private static final int LEFT_IN_BLOCK = StripedRandom.CHECK_LONGS - BEFORE % StripedRandom.CHECK_LONGS;
    private static final int LEFT_UNDER_KEY = LONGS_PER_KEY - BEFORE;
    private static final String FAKE_CRAC = "dev.idgen.random.cracfake";

    /** One process: its entropy, clocks, guard and a secure source. */
    private static final class Process {
        final ScriptedEntropy entropy = new ScriptedEntropy(SEED);
        final FixedClocks clocks = new FixedClocks();
        final SnapshotGuard guard = clocks.guard();
        final StripedRandom source;

        Process(int stripes) {
            source = new StripedRandom(stripes, () -> new AesCtrKeystream(entropy), guard, "twin");
        }

        long next(int stripe) {
            return source.nextLongFrom(stripe);
        }
    }

    /** Two copies of one process, {@link #BEFORE} longs into each of its stripes, now reading different entropy. */
    private static Process[] snapshot(int stripes) {
        Process a = new Process(stripes);
        Process b = new Process(stripes);
        for (int s = 0; s < stripes; s++) {
            for (int i = 0; i < BEFORE; i++) {
                assertEquals(a.next(s), b.next(s), "seed " + SEED + ": up to the snapshot the twins are one process");
            }
        }
        a.entropy.diverge(SEED + 1);
        b.entropy.diverge(SEED + 2);
        return new Process[] {a, b};
    }

    /** The index of the first long where the twins' stripe differs, drawing at most {@code limit}. */
    private static int firstDifference(Process[] twins, int stripe, int limit) {
        for (int i = 0; i < limit; i++) {
            if (twins[0].next(stripe) != twins[1].next(stripe)) {
                return i;
            }
        }
        return -1;
    }

    /** How many of the next {@code count} longs of the twins' stripe are equal. */
    private static int agreements(Process[] twins, int stripe, int count) {
        int same = 0;
        for (int i = 0; i < count; i++) {
            same += twins[0].next(stripe) == twins[1].next(stripe) ? 1 : 0;
        }
        return same;
    }

    @Test
    void withoutAnySignalAndOnTheSameNanosecondTheCopiesPartAtTheirNextRekey() {
        Process[] twins = snapshot(1);
        assertEquals(LEFT_UNDER_KEY, firstDifference(twins, 0, 4 * LONGS_PER_KEY),
                "seed " + SEED + ": the rest of the 64 KiB under the copied key repeats, and not one long more");
        assertEquals(0, agreements(twins, 0, 3 * LONGS_PER_KEY), "after the re-key nothing is shared");
    }

    @Test
    void copiesThatReadDifferentEntropyDoNotStayIdentical() {
        // the keystream that took entropy only for its first key made these equal forever
        Process[] twins = snapshot(1);
        int same = agreements(twins, 0, 4 * LONGS_PER_KEY);
        assertTrue(same <= LEFT_UNDER_KEY, "seed " + SEED + ": " + same + " of " + 4 * LONGS_PER_KEY
                + " longs equal in the two copies; at most the " + LEFT_UNDER_KEY + " left under the copied key may be");
    }

    @Test
    void afterACracRestoreTheCopiesPartAtOnce() throws Exception {
        Process[] twins = snapshot(1);
        int registered = dev.idgen.random.cracfake.Core.registered().size();
        for (Process p : twins) {
            Object resource = CracHook.register(List.of(FAKE_CRAC), "test", p.guard::signal, p.guard::signal);
            assertInstanceOf(dev.idgen.random.cracfake.Resource.class, resource);
        }
        assertEquals(registered + 2, dev.idgen.random.cracfake.Core.registered().size());

        dev.idgen.random.cracfake.Core.checkpointRestore();

        assertEquals(0, firstDifference(twins, 0, 1), "seed " + SEED + ": the very next long differs");
        assertEquals(0, agreements(twins, 0, 2 * LONGS_PER_KEY));
        assertEquals(1, twins[0].entropy.reseeds, "the SecureRandom is asked to reseed once per signalled stripe");
    }

    @Test
    void theOrgCracLibraryForwardsCheckpointAndRestoreToOurResource() throws Exception {
        FixedClocks clocks = new FixedClocks();
        SnapshotGuard guard = clocks.guard();
        int registered = dev.idgen.random.cracfake.Core.registered().size();
        Object resource = CracHook.register(List.of("org.crac"), "test", guard::signal, guard::signal);
        assertInstanceOf(org.crac.Resource.class, resource);
        assertEquals(registered + 1, dev.idgen.random.cracfake.Core.registered().size(),
                "org.crac registered a wrapper of ours with the JDK-side API it found");
        assertNotNull(resource.toString());

        int before = guard.epoch();
        org.crac.Core.checkpointRestore(); // what an application calls
        assertEquals(before + 2, guard.epoch(), "one signal before the checkpoint, one after the restore");
    }

    @Test
    void theSharedSourceIsRegisteredWithCracAndReKeysOnRestore() throws Exception {
        RandomSource.secure().nextLong();
        Object resource = SnapshotGuard.jvmCracResource();
        assertInstanceOf(org.crac.Resource.class, resource, "org.crac is on the class path, so it is the API used");
        int before = SnapshotGuard.jvm().epoch();
        org.crac.Core.checkpointRestore();
        assertTrue(SnapshotGuard.jvm().epoch() >= before + 2, "the JVM's guard was signalled");
        RandomSource.secure().nextLong();
    }

    @Test
    void withNoCracApiNothingIsRegistered() {
        assertNull(CracHook.register(List.of("dev.idgen.random.nosuchcrac"), "test", () -> { }, () -> { }));
    }

    @Test
    void aWallClockJumpAgainstTheMonotonicClockPartsTheCopiesWithin64Longs() {
        Process[] twins = snapshot(1);
        // restored 30 s and 45 s after the checkpoint: the monotonic clocks resume where they were
        twins[0].clocks.wallMillis += 30_000;
        twins[1].clocks.wallMillis += 45_000;
        assertEquals(LEFT_IN_BLOCK, firstDifference(twins, 0, LONGS_PER_KEY),
                "seed " + SEED + ": the rest of the 64-long block repeats, then the stripe sees the jump and re-keys");
        assertEquals(0, agreements(twins, 0, LONGS_PER_KEY));
        assertEquals(1, twins[0].entropy.reseeds, "one signal, one reseed");
    }

    @Test
    void afterAWallClockJumpEveryStripePartsAtItsNextBlockAndTheFirstReKeysThemAll() {
        Process[] twins = snapshot(4);
        twins[0].clocks.wallMillis += 30_000;
        twins[1].clocks.wallMillis += 45_000;
        assertEquals(LEFT_IN_BLOCK, firstDifference(twins, 0, LONGS_PER_REFILL), "stripe 0 sees the jump");
        for (int s = 1; s < 4; s++) {
            assertEquals(0, firstDifference(twins, s, 1), "stripe " + s + " mid-block: the epoch moved, its very next long differs");
            assertEquals(0, agreements(twins, s, LONGS_PER_REFILL), "stripe " + s);
        }
    }

    private static int sharedUuidV4s(Process[] twins, int count) {
        dev.idgen.uuid.UuidV4Generator a = dev.idgen.uuid.UuidV4Generator.builder().randomness(twins[0].source).build();
        dev.idgen.uuid.UuidV4Generator b = dev.idgen.uuid.UuidV4Generator.builder().randomness(twins[1].source).build();
        int same = 0;
        for (int i = 0; i < count; i++) {
            same += a.next().equals(b.next()) ? 1 : 0;
        }
        return same;
    }

    @Test
    void afterAWallClockJumpTheCopiesShareAtMostTheRestOfABlockOfUuidV4s() {
        // through the public API: a one-stripe source behind a UuidV4Generator in each copy; before
        // this change the copies shared the rest of the 4 KiB buffer (206 UUIDv4s here)
        Process[] twins = snapshot(1);
        twins[0].clocks.wallMillis += 30_000;
        twins[1].clocks.wallMillis += 45_000;
        assertEquals(LEFT_IN_BLOCK / 2, sharedUuidV4s(twins, LONGS_PER_KEY / 2),
                "seed " + SEED + ": UUIDv4s both copies handed out after the restore: the rest of one 64-long block");
    }

    @Test
    void afterASignalTheVeryNextUuidV4sDiffer() {
        Process[] twins = snapshot(1);
        for (Process p : twins) {
            p.guard.signal(); // what the CRaC callback does
        }
        assertEquals(0, sharedUuidV4s(twins, LONGS_PER_KEY / 2), "seed " + SEED);
    }

    @Test
    void withoutASignalCopiesThatReadDifferentNanosecondsPartAtTheNextBlock() {
        // a live VM fork: same pid, clocks in step, but the two copies reach their next block at
        // different instants of their monotonic clocks
        Process[] twins = snapshot(1);
        twins[0].clocks.monotonicNanos += 1_000;
        twins[1].clocks.monotonicNanos += 1_250;
        assertEquals(LEFT_IN_BLOCK, firstDifference(twins, 0, LONGS_PER_KEY),
                "seed " + SEED + ": the rest of the 64-long block repeats, the next block does not");
        assertEquals(0, agreements(twins, 0, 2 * LONGS_PER_KEY), "nothing after it is shared");
    }

    @Test
    void aClockMoveWithinTheBoundIsNoSignal() {
        Process[] twins = snapshot(1);
        twins[0].clocks.wallMillis += SnapshotGuard.CLOCK_JUMP_MILLIS;
        twins[1].clocks.wallMillis -= SnapshotGuard.CLOCK_JUMP_MILLIS;
        assertEquals(LEFT_UNDER_KEY, firstDifference(twins, 0, 2 * LONGS_PER_KEY), "only the periodic re-key parts them");
    }

    @Test
    void aNewProcessIdIsTakenAtTheNextBlockOnceItIsReadAgain() {
        Process[] twins = snapshot(1);
        twins[1].clocks.pid = 9001; // one copy restored under another process id
        for (Process p : twins) {
            p.clocks.monotonicNanos += SnapshotGuard.PID_CHECK_NANOS;
            p.clocks.wallMillis += SnapshotGuard.PID_CHECK_NANOS / 1_000_000; // the clocks keep step
        }
        // both copies read the same nanoseconds, so only the re-key on the new pid parts them
        assertEquals(LEFT_IN_BLOCK, firstDifference(twins, 0, LONGS_PER_KEY));
        assertEquals(1, twins[1].entropy.reseeds);
        assertEquals(0, twins[0].entropy.reseeds);
    }

    @Test
    void theProcessIdIsReadAtMostOncePerInterval() {
        FixedClocks clocks = new FixedClocks();
        int[] reads = {0};
        SnapshotGuard guard = new SnapshotGuard(() -> clocks.wallMillis, () -> clocks.monotonicNanos, () -> {
            reads[0]++;
            return clocks.pid;
        });
        assertEquals(1, reads[0], "read once when made");
        clocks.pid++;
        assertEquals(0, guard.check(), "not read again before the interval");
        clocks.monotonicNanos += SnapshotGuard.PID_CHECK_NANOS - 1;
        clocks.wallMillis += SnapshotGuard.PID_CHECK_NANOS / 1_000_000;
        assertEquals(0, guard.check());
        assertEquals(1, reads[0]);
        clocks.monotonicNanos += 1;
        assertEquals(1, guard.check(), "read, and found changed");
        assertEquals(2, reads[0]);
        clocks.monotonicNanos += SnapshotGuard.PID_CHECK_NANOS;
        clocks.wallMillis += SnapshotGuard.PID_CHECK_NANOS / 1_000_000;
        assertEquals(1, guard.check(), "the same id again: no signal");
    }

    @Test
    void theGuardSignalsOnAJumpEitherWayBeyondTheBound() {
        FixedClocks clocks = new FixedClocks();
        SnapshotGuard guard = clocks.guard();
        assertEquals(0, guard.check());
        clocks.wallMillis += SnapshotGuard.CLOCK_JUMP_MILLIS + 1;
        assertEquals(1, guard.check());
        assertEquals(1, guard.check(), "measured from the last check, not the first");
        clocks.monotonicNanos += (SnapshotGuard.CLOCK_JUMP_MILLIS + 1) * 1_000_000;
        assertEquals(2, guard.check(), "the wall clock now lags the monotonic one");
        clocks.monotonicNanos += 60_000_000_000L;
        clocks.wallMillis += 60_000;
        assertEquals(2, guard.check(), "both clocks moving together is no sign");
    }

    @Test
    void everyKeyArrayIsZeroedOnceTheCipherHasIt() {
        ScriptedEntropy entropy = new ScriptedEntropy(SEED);
        AesCtrKeystream stream = new AesCtrKeystream(entropy);
        byte[] buffer = new byte[StripedRandom.BUFFER_BYTES];
        for (int i = 0; i <= AesCtrKeystream.REFILLS_PER_KEY; i++) {
            stream.fill(buffer);
        }
        assertTrue(stream.lastKey.isDestroyed());
        assertArrayIsZero(stream.lastKey.bytes, "the second key");
        assertEquals(2, entropy.filled.size(), "fresh bytes for the first key and for the second");
        for (byte[] fresh : entropy.filled) {
            assertArrayIsZero(fresh, "the fresh bytes mixed into a key");
        }
    }

    @Test
    void anErasableKeyHandsOutCopiesAndZeroesItsOwnBytesOnDestroy() throws Exception {
        byte[] bytes = new byte[AesCtrKeystream.KEY_BYTES];
        Arrays.fill(bytes, (byte) 0x5A);
        ErasableKey key = new ErasableKey(bytes);
        byte[] copy = key.getEncoded();
        copy[0] = 0;
        assertEquals(0x5A, key.getEncoded()[0], "getEncoded hands out a copy");
        assertEquals("RAW", key.getFormat());
        assertEquals("AES", key.getAlgorithm());
        assertThrows(NotSerializableException.class,
                () -> new ObjectOutputStream(new ByteArrayOutputStream()).writeObject(key));
        assertFalse(key.isDestroyed());
        key.destroy();
        assertTrue(key.isDestroyed());
        assertArrayIsZero(bytes, "the array it owns");
        assertThrows(IllegalStateException.class, key::getEncoded);
    }

    @Test
    void aSourceFromASecureRandomDropsItsBufferAndAsksForAReseedOnASignal() {
        ScriptedEntropy entropy = new ScriptedEntropy(SEED);
        FixedClocks clocks = new FixedClocks();
        SnapshotGuard guard = clocks.guard();
        StripedRandom source = new StripedRandom(1, () -> new StripedRandom.FromSecureRandom(entropy), guard, "from");
        source.nextLong();
        guard.signal();
        long afterSignal = source.nextLong();

        byte[] expected = new byte[2 * StripedRandom.BUFFER_BYTES];
        new ScriptedEntropy(SEED).nextBytes(expected);
        long firstOfSecondRefill = ByteBuffer.wrap(expected, StripedRandom.BUFFER_BYTES, Long.BYTES)
                .order(ByteOrder.nativeOrder()).getLong();
        assertEquals(firstOfSecondRefill ^ clocks.monotonicNanos, afterSignal,
                "seed " + SEED + ": the rest of the first buffer was dropped (each long is XOR its block's monotonic reading)");
        assertEquals(1, entropy.reseeds);
        assertNotEquals(0, afterSignal);
    }

    private static void assertArrayIsZero(byte[] bytes, String what) {
        for (byte b : bytes) {
            if (b != 0) {
                throw new AssertionError(what + " was not zeroed: " + Arrays.toString(bytes));
            }
        }
    }
}
