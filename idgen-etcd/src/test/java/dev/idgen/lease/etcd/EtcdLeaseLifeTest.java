package dev.idgen.lease.etcd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.clock.ClockBackwardsPolicy;
import dev.idgen.lease.etcd.EtcdLeaseProtocol.Row;
import dev.idgen.machine.MachineIdLeaseException;
import dev.idgen.machine.MachineIdLostException;
import dev.idgen.machine.spi.IncarnationWatch;
import dev.idgen.snowflake.SnowflakeGenerator;
import dev.idgen.snowflake.SnowflakeLayout;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * A machine id's whole life on one real etcd server (issue 22): a holder whose id was taken claims
 * another, two copies of one process image, holders with different timings, a poisoned mark.
 */
class EtcdLeaseLifeTest {

    private static final SnowflakeLayout LAYOUT = SnowflakeLayout.TWITTER;
    private static EtcdCluster etcd;
    private static Client client;

    @BeforeAll
    static void startEtcd() {
        etcd = EtcdCluster.start(1);
        client = Client.builder().endpoints(etcd.endpoint(0)).build();
    }

    @AfterAll
    static void stopEtcd() {
        if (client != null) {
            client.close();
        }
        if (etcd != null) {
            etcd.close();
        }
    }

    /** A key prefix of this class alone. */
    private static String namespace(TestInfo info) {
        return "/idgen-etcd-life-test/" + info.getTestMethod().orElseThrow().getName() + "/" + System.nanoTime();
    }

    /** ttl 3 s, renew 0.4 s, margin 0.3 s, skew 0.4 s, renewed by hand. */
    private static EtcdMachineIdLease.Builder tight(String ns) {
        return EtcdLeaseBackend.timings(EtcdMachineIdLease.builder(client)).namespace(ns).background(false);
    }

    /** Claims through {@code builder} as soon as etcd frees an id (the holder's etcd lease expires). */
    private static EtcdMachineIdLease claimWhenFree(Supplier<EtcdMachineIdLease.Builder> builder) {
        long start = System.nanoTime();
        while (true) {
            assertTrue(System.nanoTime() - start < 15_000_000_000L, "no id was freed within 15 s");
            try {
                return builder.get().acquire();
            } catch (MachineIdLeaseException e) {
                assertTrue(e.getMessage().startsWith("Every machine id"), e.getMessage());
                EtcdCluster.sleep(100);
            }
        }
    }

    private static List<Long> make(SnowflakeGenerator g, int n) {
        List<Long> ids = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            ids.add(g.nextLong());
        }
        return ids;
    }

    private static void assertStrictlyIncreasing(List<Long> ids) {
        for (int i = 1; i < ids.size(); i++) {
            assertTrue(ids.get(i) > ids.get(i - 1), "ID " + i + " " + ids.get(i) + " is not above " + ids.get(i - 1));
        }
    }

    private static Set<Long> common(List<Long> a, List<Long> b) {
        Set<Long> shared = new HashSet<>(a);
        shared.retainAll(new HashSet<>(b));
        return shared;
    }

    @Test
    void aHolderWhoseIdWasTakenClaimsAnotherAndItsGeneratorGoesOnWithIt(TestInfo info) {
        String ns = namespace(info);
        EtcdMachineIdLease a = tight(ns).maxMachineId(1).acquire();
        assertEquals(0, a.machineId());
        SnowflakeGenerator ga = SnowflakeGenerator.builder().layout(LAYOUT).machineId(a).build();
        List<Long> aIds = make(ga, 1_000);
        // A stops renewing; once etcd expired its lease, B claims id 0 (the only id it may take)
        EtcdMachineIdLease b = claimWhenFree(() -> tight(ns).maxMachineId(0));
        assertEquals(0, b.machineId());
        SnowflakeGenerator gb = SnowflakeGenerator.builder().layout(LAYOUT).machineId(b)
                .onClockBackwards(ClockBackwardsPolicy.waitUpTo(Duration.ofSeconds(3))).build();
        List<Long> bIds = make(gb, 1_000);
        assertThrows(MachineIdLostException.class, ga::nextLong, "A's fence passed while it was silent");

        assertTrue(a.renewNow(), "A holds another id: " + a);
        assertEquals(1, a.machineId(), "id 0 is B's: A takes the lowest free one");
        assertEquals(1, a.reclaims());
        assertEquals(1, a.losses());
        aIds.addAll(make(ga, 1_000)); // the same generator, not rebuilt
        assertEquals(1, ga.decode(aIds.get(aIds.size() - 1)).machineId());
        assertStrictlyIncreasing(aIds);
        bIds.addAll(make(gb, 1_000));
        Set<Long> all = new HashSet<>(aIds);
        all.addAll(bIds);
        assertEquals(aIds.size() + bIds.size(), all.size(), "A and B made an ID in common");
        assertTrue(a.renewNow() && b.renewNow());
        b.close();
        a.close();
    }

    @Test
    void withReclaimAnyIdOffAHolderWaitsFencedForItsOwnIdAndTakesItBackWhenFreed(TestInfo info) {
        String ns = namespace(info);
        EtcdMachineIdLease a = tight(ns).maxMachineId(1).reclaimAnyId(false).acquire();
        SnowflakeGenerator ga = SnowflakeGenerator.builder().layout(LAYOUT).machineId(a)
                .onClockBackwards(ClockBackwardsPolicy.waitUpTo(Duration.ofSeconds(3))).build();
        List<Long> aIds = make(ga, 1_000);
        EtcdMachineIdLease b = claimWhenFree(() -> tight(ns).maxMachineId(0));
        SnowflakeGenerator gb = SnowflakeGenerator.builder().layout(LAYOUT).machineId(b)
                .onClockBackwards(ClockBackwardsPolicy.waitUpTo(Duration.ofSeconds(3))).build();
        List<Long> bIds = make(gb, 1_000);

        assertFalse(a.renewNow(), "id 1 is free, but A may only take its own: " + a);
        assertFalse(a.renewNow(), "still B's: " + a);
        assertEquals(0, a.machineId());
        assertThrows(MachineIdLostException.class, ga::nextLong);
        bIds.addAll(make(gb, 1_000));
        b.close(); // records B's last ID in the id's record and frees it

        assertTrue(a.renewNow(), "A takes its own id back once B released it: " + a);
        assertEquals(0, a.machineId());
        assertEquals(1, a.reclaims());
        List<Long> after = make(ga, 1_000);
        long bLast = bIds.get(bIds.size() - 1);
        assertTrue(after.get(0) > bLast, "A's first ID after B " + ga.decode(after.get(0)) + " is not above B's last "
                + gb.decode(bLast));
        aIds.addAll(after);
        assertStrictlyIncreasing(aIds);
        assertTrue(common(aIds, bIds).isEmpty());
        a.close();
    }

    @Test
    void anIdTheGeneratorHasNoRoomForIsGivenBackAndTheLeaseStaysFenced(TestInfo info) throws Exception {
        String ns = namespace(info);
        // one machine bit: the generator can stamp ids 0 and 1 only, while the lease may claim up to 3
        SnowflakeLayout tiny = SnowflakeLayout.custom("tiny").epoch(Instant.parse("2025-01-01T00:00:00Z"))
                .timestampBits(41).machine("worker", 1).sequenceBits(12).build();
        EtcdMachineIdLease a = tight(ns).maxMachineId(3).acquire();
        SnowflakeGenerator ga = SnowflakeGenerator.builder().layout(tiny).machineId(a).build();
        List<Long> aIds = make(ga, 100);
        EtcdMachineIdLease c = EtcdLeaseBackend.timings(EtcdMachineIdLease.builder(client)).namespace(ns)
                .maxMachineId(3).acquire(); // id 1, kept alive in the background
        assertEquals(1, c.machineId());
        EtcdMachineIdLease b = claimWhenFree(() -> EtcdLeaseBackend.timings(EtcdMachineIdLease.builder(client))
                .namespace(ns).maxMachineId(0)); // A's id 0, kept alive in the background
        assertFalse(a.renewNow(), "id 2 is free but the generator cannot stamp it: " + a);
        assertEquals(0, client.getKVClient().get(ByteSequence.from(ns + "/id/2", StandardCharsets.UTF_8)).get()
                .getKvs().size(), "id 2 was given back");
        assertThrows(MachineIdLostException.class, ga::nextLong);
        assertFalse(a.renewNow(), "nothing it can use is free: " + a);
        assertEquals(0, client.getKVClient().get(ByteSequence.from(ns + "/id/3", StandardCharsets.UTF_8)).get()
                .getKvs().size(), "id 3 was given back");
        b.close();
        assertTrue(a.renewNow(), "its own id is free again: " + a);
        assertEquals(0, a.machineId());
        aIds.addAll(make(ga, 100));
        assertStrictlyIncreasing(aIds);
        c.close();
        a.close();
    }

    /** A manual clock, with the elapsed-time clock and the restore watch moving with it. */
    private static final class Image {
        final long[] now = {System.currentTimeMillis()};
        final long[] pid = {4711};
        final InstantSource clock = () -> Instant.ofEpochMilli(now[0]);
        final LongSupplier nanos = () -> now[0] * 1_000_000L;

        IncarnationWatch watch() {
            return new IncarnationWatch(() -> pid[0], clock, nanos, 400);
        }

        SnowflakeGenerator generator(EtcdMachineIdLease lease) {
            return SnowflakeGenerator.builder().layout(LAYOUT).clock(clock).machineId(lease).build();
        }
    }

    @Test
    void twoCopiesOfOneImageGivenARestoreSignalShareNoIdAndOnlyOneKeepsTheId(TestInfo info) {
        Image image = new Image();
        EtcdMachineIdLease x = tight(namespace(info)).maxMachineId(3).clock(image.clock).elapsedClock(image.nanos)
                .acquire();
        x.watchIncarnation(image.watch());
        SnowflakeGenerator gx = image.generator(x);
        make(gx, 100);
        EtcdMachineIdLease y = x.copyOfImage(); // a snapshot restored next to the running process
        y.watchIncarnation(image.watch());
        SnowflakeGenerator gy = image.generator(y);
        assertEquals(x.fence(), y.fence());
        assertEquals(0, y.machineId());

        image.pid[0] = 4712; // both see a new process id: each must prove its claim before it opens
        assertFalse(x.renewNow(), "one acknowledged renewal after a restore opens nothing: " + x);
        assertThrows(MachineIdLostException.class, gx::nextLong);
        assertTrue(y.renewNow(), "y lost the nonce race and claimed another id: " + y);
        assertTrue(x.renewNow(), "x proved its claim twice: " + x);
        assertEquals(0, x.machineId(), "x keeps the id");
        assertNotEquals(0, y.machineId(), "y may not keep the id x holds");
        assertEquals(1, y.reclaims());

        List<Long> xIds = new ArrayList<>();
        List<Long> yIds = new ArrayList<>();
        for (int round = 0; round < 4; round++) {
            image.now[0] += 50;
            xIds.addAll(make(gx, 200));
            yIds.addAll(make(gy, 200));
            assertTrue(x.renewNow(), x.toString());
            assertTrue(y.renewNow(), y.toString());
        }
        assertEquals(0, x.machineId());
        assertTrue(common(xIds, yIds).isEmpty(), "the copies made IDs in common");
        y.close();
        x.close();
    }

    @Test
    void afterRestoreOnOneCopyRenewsAtOnceAndTheOtherCopyMovesAwayOnItsNextRenewal(TestInfo info) {
        Image image = new Image();
        EtcdMachineIdLease x = tight(namespace(info)).maxMachineId(3).clock(image.clock).elapsedClock(image.nanos)
                .acquire();
        x.watchIncarnation(image.watch());
        SnowflakeGenerator gx = image.generator(x);
        make(gx, 100);
        EtcdMachineIdLease y = x.copyOfImage();
        y.watchIncarnation(image.watch());
        SnowflakeGenerator gy = image.generator(y);

        y.afterRestore(); // the restore hook: y renews twice on its own executor
        assertThrows(MachineIdLostException.class, gy::nextLong, "fenced until y proved its claim");
        long start = System.nanoTime();
        while (!y.isHeld()) {
            assertTrue(System.nanoTime() - start < 5_000_000_000L, "y did not renew after the restore: " + y);
            EtcdCluster.sleep(20);
        }
        assertEquals(0, y.machineId(), "y rotated the nonce first and keeps the id");
        assertTrue(x.renewNow(), "x found another copy's nonce and claimed another id: " + x);
        assertNotEquals(0, x.machineId());
        assertEquals(1, x.reclaims());
        image.now[0] += 50;
        List<Long> xIds = make(gx, 500);
        List<Long> yIds = make(gy, 500);
        assertTrue(x.renewNow() && y.renewNow());
        assertTrue(common(xIds, yIds).isEmpty(), "the copies made IDs in common");
        y.close();
        x.close();
    }

    @Test
    void withoutASignalTwoCopiesShareIdsOnlyUntilTheLosersFirstRenewal(TestInfo info) {
        Image image = new Image();
        EtcdMachineIdLease x = tight(namespace(info)).maxMachineId(3).clock(image.clock).elapsedClock(image.nanos)
                .acquire();
        x.watchIncarnation(image.watch());
        SnowflakeGenerator gx = image.generator(x);
        make(gx, 100);
        EtcdMachineIdLease y = x.copyOfImage(); // a VM cloned while running: same pid, same clocks
        y.watchIncarnation(image.watch());
        SnowflakeGenerator gy = image.generator(y);

        List<Long> xBefore = new ArrayList<>();
        List<Long> yBefore = new ArrayList<>();
        image.now[0] += 10;
        xBefore.addAll(make(gx, 300));
        yBefore.addAll(make(gy, 300));
        assertTrue(x.renewNow(), "the first to renew rotates the nonce: " + x);
        image.now[0] += 10;
        xBefore.addAll(make(gx, 300));
        yBefore.addAll(make(gy, 300)); // y has not renewed yet: its fence is the snapshot's
        int shared = common(xBefore, yBefore).size();
        System.out.println("etcd lease, two copies without a restore signal: " + shared + " of " + yBefore.size()
                + " IDs shared before the loser's first renewal");
        assertEquals(600, shared, "the clones stamp the same (tick, sequence) pairs on the same id until y renews");

        assertTrue(y.renewNow(), "y found x's nonce and claimed another id: " + y);
        assertEquals(0, x.machineId());
        assertNotEquals(0, y.machineId());
        List<Long> xAfter = new ArrayList<>();
        List<Long> yAfter = new ArrayList<>();
        for (int round = 0; round < 3; round++) {
            image.now[0] += 10;
            xAfter.addAll(make(gx, 300));
            yAfter.addAll(make(gy, 300));
            assertTrue(x.renewNow() && y.renewNow());
        }
        List<Long> xAll = new ArrayList<>(xBefore);
        xAll.addAll(xAfter);
        assertTrue(common(xAll, yAfter).isEmpty(), "y made an ID of x's after its first renewal");
        y.close();
        x.close();
    }

    @Test
    void aClaimerWithALargerSkewBoundStartsAboveTheOldHoldersFence(TestInfo info) {
        String ns = namespace(info);
        // A: skew bound 100 ms, margin 300 ms (offset 400 ms), on a manual clock it drives to its fence
        Image image = new Image();
        EtcdMachineIdLease a = EtcdMachineIdLease.builder(client).namespace(ns).maxMachineId(0).background(false)
                .ttl(Duration.ofSeconds(3)).renewEvery(Duration.ofMillis(400)).safetyMargin(Duration.ofMillis(300))
                .maxClockSkew(Duration.ofMillis(100)).clock(image.clock).elapsedClock(image.nanos).acquire();
        a.watchIncarnation(image.watch());
        SnowflakeGenerator ga = image.generator(a);
        long aFence = a.fence().toEpochMilli();
        List<Long> aIds = new ArrayList<>();
        while (true) { // two IDs in every millisecond up to the fence; then A falls silent
            image.now[0]++;
            try {
                aIds.add(ga.nextLong());
                aIds.add(ga.nextLong());
            } catch (MachineIdLostException e) {
                break;
            }
        }
        assertEquals(aFence, image.now[0], "A is refused from its fence on");
        assertTrue(aIds.size() > 4_000, "A made IDs up to its fence: " + aIds.size());

        // B: skew bound 1.5 s (offset 1.8 s), its clock 1.4 s behind: within its bound, and so far
        // behind that its clock reads below A's fence when etcd lets it claim
        InstantSource behind = () -> Instant.ofEpochMilli(System.currentTimeMillis() - 1_400);
        EtcdMachineIdLease b = claimWhenFree(() -> EtcdMachineIdLease.builder(client).namespace(ns).maxMachineId(0)
                .background(false).ttl(Duration.ofSeconds(5)).renewEvery(Duration.ofMillis(400))
                .safetyMargin(Duration.ofMillis(300)).maxClockSkew(Duration.ofMillis(1_500)).clock(behind));
        SnowflakeGenerator gb = SnowflakeGenerator.builder().layout(LAYOUT).clock(behind).machineId(b)
                .onClockBackwards(ClockBackwardsPolicy.waitUpTo(Duration.ofSeconds(3))).build();
        List<Long> bIds = make(gb, 2_000);
        for (long id : bIds) {
            long t = gb.decode(id).timestamp().toEpochMilli();
            assertTrue(t >= aFence, "B stamped " + Instant.ofEpochMilli(t) + ", below A's fence "
                    + Instant.ofEpochMilli(aFence));
        }
        assertTrue(common(aIds, bIds).isEmpty(), "A and B made IDs in common");
        b.close();
        a.close();
    }

    @Test
    void aMarkADayAheadInTheRecordIsCappedOnClaimAndHealedByTheFirstRenewal(TestInfo info) throws Exception {
        String ns = namespace(info);
        long day = Duration.ofDays(1).toMillis();
        long poisoned = System.currentTimeMillis() + day;
        client.getKVClient().put(ByteSequence.from(ns + "/mark/0", StandardCharsets.UTF_8),
                ByteSequence.from(Long.toString(poisoned), StandardCharsets.UTF_8)).get(); // an old-format record
        long before = System.currentTimeMillis();
        EtcdMachineIdLease lease = tight(ns).maxMachineId(0).acquire();
        SnowflakeGenerator g = SnowflakeGenerator.builder().layout(LAYOUT).machineId(lease)
                .onClockBackwards(ClockBackwardsPolicy.waitUpTo(Duration.ofSeconds(1))).build();
        long first = g.nextLong(); // at most 2 x 400 ms ahead of this clock, not a day
        long stamped = g.decode(first).timestamp().toEpochMilli();
        assertTrue(stamped <= System.currentTimeMillis() + 800, "first ID at " + Instant.ofEpochMilli(stamped));
        assertTrue(stamped > before, "above the capped mark");
        assertTrue(lease.renewNow(), lease.toString());
        Row row = lease.record(0);
        long bound = System.currentTimeMillis() + 400 + 400; // what the lease takes for etcd's now, plus the skew
        assertTrue(row.mark() <= bound, "recorded mark " + Instant.ofEpochMilli(row.mark()) + " beyond "
                + Instant.ofEpochMilli(bound));
        assertTrue(row.mark() >= g.highWaterMark(), "the record covers the generator's IDs");
        assertEquals(700, row.offsetMillis(), "the writer's maxClockSkew + safetyMargin");
        assertTrue(row.expiryMillis() > before, "the last keep-alive's expiry");
        lease.close();
        Row released = lease.record(0);
        assertEquals(EtcdLeaseProtocol.NONE, released.expiryMillis(), "a release leaves no expiry: the mark covers all");
        assertTrue(released.mark() >= g.highWaterMark());
    }

    @Test
    void theRecordReadsItsOldFormatAndWritesNoneAsADash() {
        long none = EtcdLeaseProtocol.NONE;
        assertEquals(new Row(17, none, none, none), Row.decode("17"));
        Row r = new Row(1_700_000_000_000L, 700, none, -2);
        assertEquals("1700000000000 700 - fffffffffffffffe", r.encode());
        assertEquals(r, Row.decode(r.encode()));
        assertEquals(Row.EMPTY, Row.decode(Row.EMPTY.encode()));
    }
}
