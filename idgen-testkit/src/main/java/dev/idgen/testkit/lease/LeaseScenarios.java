package dev.idgen.testkit.lease;

import dev.idgen.clock.ClockBackwardsPolicy;
import dev.idgen.lease.LeaseBuilder;
import dev.idgen.lease.LeaseState;
import dev.idgen.lease.StoreLease;
import dev.idgen.machine.MachineIdLeaseException;
import dev.idgen.machine.MachineIdLostException;
import dev.idgen.snowflake.SnowflakeGenerator;
import dev.idgen.snowflake.SnowflakeLayout;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The conformance suite every machine-id lease store runs against its real engine through a
 * {@link LeaseBackend}: each scenario makes IDs the way a fault leaves them made, counts the IDs two
 * holders share (must be 0, except where a scenario measures the documented bound of a copy that
 * sees no signal) and how long no ID could be made, and throws an {@link AssertionError} naming what
 * went wrong.
 *
 * <p>A store's test runs {@link #all()} (one JUnit dynamic test per scenario, say). The scenarios
 * wait on real time, bounded by a few of the backend's ttls; keep the backend's ttl at a few seconds.
 */
public final class LeaseScenarios {

    private static final SnowflakeLayout LAYOUT = SnowflakeLayout.TWITTER;

    private LeaseScenarios() {
    }

    /**
     * What one scenario measured.
     *
     * @param scenario its name
     * @param identical IDs made by two holders (0 unless the scenario measures a documented bound)
     * @param blindMillis the longest time, in ms, in which the scenario's holder that should make IDs
     *     could make none (a claim, a wait for a floor)
     * @param detail what else it saw, for the log
     */
    public record Result(String scenario, long identical, long blindMillis, String detail) {
        @Override
        public String toString() {
            return scenario + ": " + identical + " identical IDs, " + blindMillis + " ms without IDs; " + detail;
        }
    }

    /**
     * One scenario, to run against a backend.
     *
     * @param name its name
     * @param run the scenario
     */
    public record Scenario(String name, Function<LeaseBackend, Result> run) {
        /**
         * @param backend the store under test
         * @return what it measured
         * @throws AssertionError if the store broke a promise
         */
        public Result runOn(LeaseBackend backend) {
            return run.apply(backend);
        }
    }

    /** {@return every scenario, in a stable order} */
    public static List<Scenario> all() {
        return List.of(
                new Scenario("churn", LeaseScenarios::churn),
                new Scenario("hand over above the mark", LeaseScenarios::handOverAboveTheMark),
                new Scenario("holder cut off, id taken", LeaseScenarios::cutOff),
                new Scenario("pause past the term, id taken", LeaseScenarios::pausePastTheTerm),
                new Scenario("pause past the term, id still free", LeaseScenarios::quickReturn),
                new Scenario("re-claim racing a late renewal", LeaseScenarios::reclaimRacingALateRenewal),
                new Scenario("copy signalled, then original renews", b -> copyWithSignal(b, false)),
                new Scenario("original renews, then copy signalled", b -> copyWithSignal(b, true)),
                new Scenario("original signalled, copy not", LeaseScenarios::originalSignalled),
                new Scenario("copy without signal", LeaseScenarios::copyWithoutSignal),
                new Scenario("copy whose renewals fail", LeaseScenarios::copyWhoseRenewalsFail),
                new Scenario("record deleted", b -> storeForgets(b, "record deleted", n -> n.forgetRecord(0))),
                new Scenario("store emptied", b -> storeForgets(b, "store emptied", LeaseBackend.Namespace::forgetAll)),
                new Scenario("store restarted empty", b -> storeForgets(b, "store restarted empty",
                        LeaseBackend.Namespace::restartEmpty)),
                new Scenario("two layouts", LeaseScenarios::twoLayouts),
                new Scenario("mixed skew bounds", LeaseScenarios::mixedSkew),
                new Scenario("two stores, one ID space", LeaseScenarios::twoStores),
                new Scenario("clock step inside the bound", LeaseScenarios::clockStepInsideTheBound));
    }

    /**
     * Runs every scenario.
     *
     * @param backend the store under test
     * @return what each measured
     * @throws AssertionError at the first scenario that fails
     */
    public static List<Result> check(LeaseBackend backend) {
        List<Result> results = new ArrayList<>();
        for (Scenario s : all()) {
            results.add(s.runOn(backend));
        }
        return results;
    }

    // ------------------------------------------------------------------ scenarios

    /** Four claimers acquire, make IDs and release over two ids, round after round: never two on one id. */
    static Result churn(LeaseBackend backend) {
        try (LeaseBackend.Namespace ns = backend.namespace("churn")) {
            ConcurrentMap<Long, String> holding = new ConcurrentHashMap<>();
            Set<Long> ids = ConcurrentHashMap.newKeySet();
            List<String> failures = Collections.synchronizedList(new ArrayList<>());
            AtomicLong claims = new AtomicLong();
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                String name = "churn-" + t;
                threads.add(new Thread(() -> {
                    try (LeaseBackend.Connection c = ns.connect(name)) {
                        start.await();
                        for (int r = 0; r < 4; r++) {
                            StoreLease lease = tryHold(c, b -> b.maxMachineId(1));
                            if (lease == null) {
                                continue;
                            }
                            claims.incrementAndGet();
                            String other = holding.putIfAbsent(lease.machineId(), name);
                            if (other != null) {
                                failures.add(name + " and " + other + " both hold machine id " + lease.machineId());
                            }
                            SnowflakeGenerator g = generator(lease, InstantSource.system());
                            for (int i = 0; i < 100; i++) {
                                long id = g.nextLong();
                                if (!ids.add(id)) {
                                    failures.add(name + " repeated ID " + id + " (" + g.decode(id) + ")");
                                }
                            }
                            holding.remove(lease.machineId(), name);
                            lease.close();
                        }
                    } catch (InterruptedException | RuntimeException e) {
                        failures.add(name + ": " + e);
                    }
                }, name));
            }
            threads.forEach(Thread::start);
            start.countDown();
            joinAll(threads);
            check(failures.isEmpty(), "churn: " + failures);
            check(claims.get() > 0, "churn: no claimer ever got an id");
            return new Result("churn", 0, 0, claims.get() + " claims, " + ids.size() + " IDs, all distinct");
        }
    }

    /** A holder whose clock runs ahead (within the bound) releases; the next, on real time, starts above its IDs. */
    static Result handOverAboveTheMark(LeaseBackend backend) {
        try (LeaseBackend.Namespace ns = backend.namespace("hand-over");
                LeaseBackend.Connection ca = ns.connect("A");
                LeaseBackend.Connection cb = ns.connect("B")) {
            long ahead = ca.builder().timings(true).maxClockSkew().toMillis() / 2;
            InstantSource aheadClock = offset(ahead);
            StoreLease a = hold(ca, b -> b.maxMachineId(0).clock(aheadClock), "A holds id 0");
            SnowflakeGenerator ga = generator(a, aheadClock);
            long last = 0;
            for (int i = 0; i < 1000; i++) {
                last = ga.nextLong();
            }
            a.close();
            StoreLease b = holdWithin(cb, x -> x.maxMachineId(0), limit(cb), "B holds the released id");
            SnowflakeGenerator gb = SnowflakeGenerator.builder().layout(LAYOUT).machineId(b)
                    .onClockBackwards(ClockBackwardsPolicy.waitUpTo(Duration.ofMillis(ahead + 1_000))).build();
            long first = gb.nextLong();
            check(first > last, "hand-over: the next holder's first ID " + gb.decode(first)
                    + " is not above the first holder's last " + gb.decode(last));
            b.close();
            return new Result("hand over above the mark", 0, 0, "clock " + ahead + " ms ahead; next ID above");
        }
    }

    /** A holder making IDs is cut off from the store; another claimer takes its id once the store lets it. */
    static Result cutOff(LeaseBackend backend) {
        try (LeaseBackend.Namespace ns = backend.namespace("cut-off");
                LeaseBackend.Connection ca = ns.connect("A");
                LeaseBackend.Connection cb = ns.connect("B")) {
            StoreLease a = hold(ca, b -> b.maxMachineId(0).background(true), "A holds id 0");
            Maker ma = Maker.start(generator(a, InstantSource.system()), "A");
            ma.awaitIds();
            long cut = System.nanoTime();
            ca.cutOff();
            StoreLease b = holdWithin(cb, x -> x.maxMachineId(0), limit(cb), "B holds A's id after the cut");
            long takenAfter = millisSince(cut);
            long bStart = System.currentTimeMillis();
            Maker mb = Maker.start(generator(b, InstantSource.system()), "B");
            mb.awaitIds();
            pause(100);
            ma.stop();
            mb.stop();
            long identical = identical(ma, mb);
            check(identical == 0, "cut off: " + identical + " IDs made by both holders");
            check(ma.lastMillis() < bStart, "cut off: A made an ID at " + Instant.ofEpochMilli(ma.lastMillis())
                    + ", at or after B started at " + Instant.ofEpochMilli(bStart));
            check(ma.refusals() > 0, "cut off: A was never refused");
            b.close();
            a.close();
            return new Result("holder cut off, id taken", identical, takenAfter, "A refused "
                    + (ma.firstRefusalNanos() - cut) / 1_000_000 + " ms after the cut; B held the id "
                    + takenAfter + " ms after it");
        }
    }

    /**
     * A holder is not renewed past its term (a stopped process, as SIGSTOP leaves it); another takes
     * its id; the first comes back, is refused for that id, and holds another within one claim.
     */
    static Result pausePastTheTerm(LeaseBackend backend) {
        try (LeaseBackend.Namespace ns = backend.namespace("pause");
                LeaseBackend.Connection ca = ns.connect("A");
                LeaseBackend.Connection cb = ns.connect("B")) {
            StoreLease a = hold(ca, b -> b.maxMachineId(1), "A holds an id");
            SnowflakeGenerator ga = generator(a, InstantSource.system());
            Set<Long> aIds = make(ga, 1000);
            long before = Collections.max(aIds);
            pause(a.timings().ttl().toMillis() + 200);
            check(refused(ga), "pause: A made an ID after its term without renewing");
            StoreLease b = holdWithin(cb, x -> x.maxMachineId(1), limit(cb), "B holds an id");
            check(b.machineId() == 0, "pause: B took id " + b.machineId() + ", not the expired id 0");
            Set<Long> bIds = make(generator(b, InstantSource.system()), 1000);
            long resumed = System.nanoTime();
            check(a.renewNow(), "pause: A did not hold again after it came back: " + a);
            long blind = millisSince(resumed);
            check(a.machineId() == 1, "pause: A came back on id " + a.machineId() + ", not the free id 1");
            Set<Long> after = make(ga, 1000);
            check(Collections.min(after) > before, "pause: A's IDs went down across the pause");
            aIds.addAll(after);
            long identical = intersection(aIds, bIds);
            check(identical == 0, "pause: " + identical + " IDs made by both holders");
            check(a.reclaims() == 1, "pause: the return was counted " + a.reclaims() + " times, not once");
            a.close();
            b.close();
            return new Result("pause past the term, id taken", identical, blind, "A held id 1 " + blind
                    + " ms after it came back");
        }
    }

    /** A holder not renewed past its term whose id no one took holds it again at its first renewal. */
    static Result quickReturn(LeaseBackend backend) {
        try (LeaseBackend.Namespace ns = backend.namespace("return");
                LeaseBackend.Connection ca = ns.connect("A")) {
            StoreLease a = hold(ca, b -> b.maxMachineId(1), "A holds an id");
            SnowflakeGenerator ga = generator(a, InstantSource.system());
            long before = Collections.max(make(ga, 100));
            pause(a.timings().ttl().toMillis() + 200);
            long resumed = System.nanoTime();
            check(a.renewNow(), "return: A did not hold again: " + a);
            long blind = millisSince(resumed);
            check(a.machineId() == 0, "return: A moved to id " + a.machineId() + " though its own was free");
            check(Collections.min(make(ga, 100)) > before, "return: IDs went down");
            check(a.reclaims() == 1, "return: counted " + a.reclaims() + " times, not once");
            a.close();
            return new Result("pause past the term, id still free", 0, blind, "held again in " + blind + " ms");
        }
    }

    /** After a holder's term, its late renewal and another's claim race: never both hold the one id. */
    static Result reclaimRacingALateRenewal(LeaseBackend backend) {
        long bothHeld = 0;
        String outcomes = "";
        for (int round = 0; round < 2; round++) {
            try (LeaseBackend.Namespace ns = backend.namespace("race-" + round);
                    LeaseBackend.Connection ca = ns.connect("A");
                    LeaseBackend.Connection cb = ns.connect("B")) {
                StoreLease a = hold(ca, b -> b.maxMachineId(0), "A holds id 0");
                SnowflakeGenerator ga = generator(a, InstantSource.system());
                make(ga, 10);
                pause(a.timings().ttl().toMillis() + 100);
                StoreLease[] b = new StoreLease[1];
                CountDownLatch go = new CountDownLatch(1);
                Thread claimer = new Thread(() -> {
                    await(go);
                    b[0] = tryHold(cb, x -> x.maxMachineId(0));
                });
                claimer.start();
                go.countDown();
                boolean aHeld = a.renewNow();
                joinAll(List.of(claimer));
                boolean bHeld = b[0] != null && b[0].isHeld();
                if (aHeld && bHeld && a.isHeld()) {
                    bothHeld++;
                }
                if (bHeld) {
                    Set<Long> bIds = make(generator(b[0], InstantSource.system()), 200);
                    check(refused(ga) || intersection(make(ga, 200), bIds) == 0, "race: both made the same IDs");
                    b[0].close();
                }
                outcomes += (aHeld ? "A" : "") + (bHeld ? "B" : "") + " ";
                a.close();
            }
        }
        check(bothHeld == 0, "race: both held id 0 at once " + bothHeld + " times");
        return new Result("re-claim racing a late renewal", 0, 0, "winners per round: " + outcomes.strip());
    }

    /**
     * Two copies of one process image; one sees a restore signal before it makes IDs: it claims
     * another id and the other keeps the old one; no ID in common, in either order of writes.
     */
    static Result copyWithSignal(LeaseBackend backend, boolean originalRenewsFirst) {
        String name = originalRenewsFirst ? "original renews, then copy signalled" : "copy signalled, then original renews";
        try (LeaseBackend.Namespace ns = backend.namespace(originalRenewsFirst ? "copy-late" : "copy-early");
                LeaseBackend.Connection ca = ns.connect("A");
                LeaseBackend.Connection cc = ns.connect("copy")) {
            StoreLease a = hold(ca, b -> b.maxMachineId(1), "A holds id 0");
            SnowflakeGenerator ga = generator(a, InstantSource.system());
            Set<Long> aIds = make(ga, 500);
            StoreLease copy = a.copyOfImage(cc.store());
            SnowflakeGenerator gc = generator(copy, InstantSource.system());
            if (originalRenewsFirst) {
                check(a.renewNow(), "copy: the original lost its id on renewing: " + a);
            }
            long signal = System.nanoTime();
            copy.afterRestore();
            check(refused(gc), "copy: the signalled copy made an ID under the old claim");
            check(copy.renewNow(), "copy: the signalled copy holds no id: " + copy);
            long blind = millisSince(signal);
            Set<Long> copyIds = make(gc, 500);
            if (!originalRenewsFirst) {
                check(a.renewNow(), "copy: the original lost its id to the signalled copy: " + a);
            }
            aIds.addAll(make(ga, 500));
            check(copy.machineId() != a.machineId(), "copy: both on machine id " + a.machineId());
            long identical = intersection(aIds, copyIds);
            check(identical == 0, "copy: " + identical + " IDs made by both copies");
            copy.close();
            a.close();
            return new Result(name, identical, blind, "copy on id " + copy.machineId() + " " + blind
                    + " ms after the signal; original kept id " + a.machineId());
        }
    }

    /** The original sees a restore signal, the copy does not: the original moves, the copy keeps the claim. */
    static Result originalSignalled(LeaseBackend backend) {
        try (LeaseBackend.Namespace ns = backend.namespace("original-signalled");
                LeaseBackend.Connection ca = ns.connect("A");
                LeaseBackend.Connection cc = ns.connect("copy")) {
            StoreLease a = hold(ca, b -> b.maxMachineId(1), "A holds id 0");
            SnowflakeGenerator ga = generator(a, InstantSource.system());
            Set<Long> aIds = make(ga, 500);
            StoreLease copy = a.copyOfImage(cc.store());
            SnowflakeGenerator gc = generator(copy, InstantSource.system());
            long signal = System.nanoTime();
            a.afterRestore();
            check(a.renewNow(), "original signalled: it holds no id: " + a);
            long blind = millisSince(signal);
            aIds.addAll(make(ga, 500));
            check(copy.renewNow(), "original signalled: the copy lost the claim: " + copy);
            Set<Long> copyIds = make(gc, 500);
            long identical = intersection(aIds, copyIds);
            check(identical == 0, "original signalled: " + identical + " IDs made by both");
            copy.close();
            a.close();
            return new Result("original signalled, copy not", identical, blind, "original moved to id "
                    + a.machineId() + " in " + blind + " ms; the copy kept id " + copy.machineId());
        }
    }

    /**
     * A copy with no signal shares the claim until one of the two writes: the other's next renewal
     * finds a nonce it never wrote and it claims another id. IDs made by both before that write are
     * the documented bound of this case; none after it.
     */
    static Result copyWithoutSignal(LeaseBackend backend) {
        try (LeaseBackend.Namespace ns = backend.namespace("copy-silent");
                LeaseBackend.Connection ca = ns.connect("A");
                LeaseBackend.Connection cc = ns.connect("copy")) {
            StoreLease a = hold(ca, b -> b.maxMachineId(1), "A holds id 0");
            SnowflakeGenerator ga = generator(a, InstantSource.system());
            make(ga, 10);
            StoreLease copy = a.copyOfImage(cc.store());
            SnowflakeGenerator gc = generator(copy, InstantSource.system());
            Set<Long> aIds = make(ga, 200);
            Set<Long> copyIds = make(gc, 200);
            check(a.renewNow(), "copy without signal: the original lost its id: " + a);
            check(copy.renewNow(), "copy without signal: the copy holds no id after its renewal: " + copy);
            check(copy.machineId() != a.machineId(), "copy without signal: both on id " + a.machineId()
                    + " after both renewed");
            aIds.addAll(make(ga, 500));
            Set<Long> copyAfter = make(gc, 500);
            check(intersection(aIds, copyAfter) == 0, "copy without signal: the copy made IDs of the original's"
                    + " after its renewal told it the claim was not its own");
            // the copy's IDs from before its renewal may equal the original's of the same milliseconds:
            // the documented bound of a copy that sees no signal
            long before = intersection(aIds, copyIds);
            copy.close();
            a.close();
            return new Result("copy without signal", before, 0, before + " identical IDs made by the copy before"
                    + " its first renewal (the bound of a copy with no signal), none after");
        }
    }

    /**
     * A copy with no signal whose writes never reach the store (its network is not up, its pooled
     * connections are dead) stops making IDs within the silence bound of the last write it copied.
     */
    static Result copyWhoseRenewalsFail(LeaseBackend backend) {
        try (LeaseBackend.Namespace ns = backend.namespace("copy-cut");
                LeaseBackend.Connection ca = ns.connect("A");
                LeaseBackend.Connection cc = ns.connect("copy")) {
            StoreLease a = hold(ca, b -> b.maxMachineId(1).background(true), "A holds id 0");
            long copied = System.currentTimeMillis();
            cc.cutOff();
            StoreLease copy = a.copyOfImage(cc.store());
            long silence = a.timings().silence().toMillis();
            Maker mc = Maker.start(generator(copy, InstantSource.system()), "copy");
            Maker ma = Maker.start(generator(a, InstantSource.system()), "A");
            Thread renewing = new Thread(copy::renewNow, "copy-renewal"); // hangs on the cut connection
            renewing.setDaemon(true);
            renewing.start();
            long deadline = System.nanoTime() + (silence + 2_000) * 1_000_000L;
            while (mc.refusals() == 0 && System.nanoTime() < deadline) {
                pause(20);
            }
            pause(100);
            ma.stop();
            mc.stop();
            check(mc.refusals() > 0, "copy with failing renewals: it was never refused in " + (silence + 2_000) + " ms");
            long lastAfterCopy = mc.lastMillis() - copied;
            check(mc.lastMillis() < copied + silence, "copy with failing renewals: it made an ID "
                    + lastAfterCopy + " ms after the copy, beyond the silence bound of " + silence + " ms");
            long identical = identical(ma, mc);
            a.close();
            return new Result("copy whose renewals fail", identical, 0, "last ID of the copy " + lastAfterCopy
                    + " ms after the copy (bound " + silence + " ms); " + identical + " IDs in common before it");
        }
    }

    /**
     * The store forgets (a record deleted, everything emptied, a restart without persistence) while
     * a holder makes IDs between two renewals; another claimer tries at once and keeps trying. Its
     * first ID comes after every ID of the first holder, whose fence was still open when the store
     * forgot.
     */
    static Result storeForgets(LeaseBackend backend, String name, Consumer<LeaseBackend.Namespace> forget) {
        try (LeaseBackend.Namespace ns = backend.namespace(name.replace(' ', '-'));
                LeaseBackend.Connection ca = ns.connect("A")) {
            StoreLease a = hold(ca, b -> b.maxMachineId(0), "A holds id 0");
            Maker ma = Maker.start(generator(a, InstantSource.system()), "A");
            ma.awaitIds();
            forget.accept(ns);
            long forgot = System.nanoTime();
            try (LeaseBackend.Connection cb = ns.connect("B")) {
                // B as in production: renewing on its own thread while its claim waits out the ttl
                StoreLease b = holdWithin(cb, x -> x.maxMachineId(0).background(true), limit(cb),
                        "B holds id 0 after the store forgot");
                long bStart = System.currentTimeMillis();
                long waited = millisSince(forgot);
                Maker mb = Maker.start(generator(b, InstantSource.system()), "B");
                mb.awaitIds();
                pause(100);
                ma.stop();
                mb.stop();
                long identical = identical(ma, mb);
                check(identical == 0, name + ": " + identical + " IDs made by both holders");
                check(ma.lastMillis() < bStart, name + ": A made an ID at " + Instant.ofEpochMilli(ma.lastMillis())
                        + ", after B started at " + Instant.ofEpochMilli(bStart));
                b.close();
                a.close();
                return new Result(name, identical, waited, "B held id 0 " + waited + " ms after the store forgot");
            }
        }
    }

    /** A holder of another layout on the same namespace is refused, naming both layouts. */
    static Result twoLayouts(LeaseBackend backend) {
        SnowflakeLayout other = SnowflakeLayout.custom("other").epoch(LAYOUT.epoch()).timestampBits(41)
                .machineBits(8).sequenceBits(14).build();
        try (LeaseBackend.Namespace ns = backend.namespace("two-layouts");
                LeaseBackend.Connection ca = ns.connect("A");
                LeaseBackend.Connection cb = ns.connect("B")) {
            StoreLease a = hold(ca, b -> b.layout(LAYOUT).maxMachineId(4), "A holds an id");
            String message;
            try {
                StoreLease b = cb.builder().layout(other).acquire();
                b.close();
                throw new AssertionError("two layouts: a holder of layout " + other.signature()
                        + " was let in beside " + LAYOUT.signature());
            } catch (MachineIdLeaseException e) {
                message = e.getMessage();
            }
            check(message.contains(LAYOUT.signature()) && message.contains(other.signature()),
                    "two layouts: the refusal does not name both layouts: " + message);
            a.close();
            return new Result("two layouts", 0, 0, "refused: " + message);
        }
    }

    /** Holders with different skew bounds and margins hand an id over after a cut, in both directions. */
    static Result mixedSkew(LeaseBackend backend) {
        String detail = "";
        for (boolean widerFirst : new boolean[] {true, false}) {
            try (LeaseBackend.Namespace ns = backend.namespace("mixed-" + widerFirst);
                    LeaseBackend.Connection ca = ns.connect("A");
                    LeaseBackend.Connection cb = ns.connect("B")) {
                Duration base = ca.builder().timings(true).maxClockSkew();
                Duration narrow = base.dividedBy(4);
                Duration skewA = widerFirst ? base : narrow;
                Duration skewB = widerFirst ? narrow : base;
                StoreLease a = hold(ca, x -> x.maxMachineId(0).maxClockSkew(skewA).background(true), "A holds id 0");
                Maker ma = Maker.start(generator(a, InstantSource.system()), "A");
                ma.awaitIds();
                ca.cutOff();
                StoreLease b = holdWithin(cb, x -> x.maxMachineId(0).maxClockSkew(skewB), limit(cb),
                        "B holds id 0 after the cut");
                long bStart = System.currentTimeMillis();
                Maker mb = Maker.start(generator(b, InstantSource.system()), "B");
                mb.awaitIds();
                ma.stop();
                mb.stop();
                long identical = identical(ma, mb);
                check(identical == 0, "mixed skew: " + identical + " IDs in common (A " + skewA + ", B " + skewB + ")");
                check(ma.lastMillis() < bStart, "mixed skew: A made an ID after B started");
                detail += "A " + skewA.toMillis() + " ms / B " + skewB.toMillis() + " ms: 0 in common; ";
                b.close();
                a.close();
            }
        }
        return new Result("mixed skew bounds", 0, 0, detail.strip());
    }

    /**
     * One ID space served by two namespaces at once (a move from one store to another): each owns a
     * range of machine ids of its own, and holders of both make IDs side by side with none in common.
     */
    static Result twoStores(LeaseBackend backend) {
        try (LeaseBackend.Namespace old = backend.namespace("two-stores-old");
                LeaseBackend.Namespace moved = backend.namespace("two-stores-new");
                LeaseBackend.Connection co = old.connect("old");
                LeaseBackend.Connection cn = moved.connect("new")) {
            StoreLease o = hold(co, b -> b.minMachineId(0).maxMachineId(1), "an old holder");
            StoreLease n = hold(cn, b -> b.minMachineId(2).maxMachineId(3), "a new holder");
            check(o.machineId() <= 1 && n.machineId() >= 2, "two stores: ids " + o.machineId() + " and "
                    + n.machineId() + " are outside their stores' ranges");
            Set<Long> oIds = make(generator(o, InstantSource.system()), 2000);
            Set<Long> nIds = make(generator(n, InstantSource.system()), 2000);
            long identical = intersection(oIds, nIds);
            check(identical == 0, "two stores: " + identical + " IDs in common");
            check(n.toString().contains(String.valueOf(n.machineId())), "two stores: the lease does not say its id");
            o.close();
            n.close();
            return new Result("two stores, one ID space", identical, 0, "old store ids 0..1, new store ids 2..3");
        }
    }

    /** A holder's clock steps forward and back within the skew bound: no refusal, no loss. */
    static Result clockStepInsideTheBound(LeaseBackend backend) {
        try (LeaseBackend.Namespace ns = backend.namespace("clock-step");
                LeaseBackend.Connection ca = ns.connect("A")) {
            AtomicLong offset = new AtomicLong();
            InstantSource clock = () -> Instant.ofEpochMilli(System.currentTimeMillis() + offset.get());
            long step = ca.builder().timings(true).maxClockSkew().toMillis() / 2;
            StoreLease a = hold(ca, b -> b.maxMachineId(0).clock(clock).background(true), "A holds id 0");
            SnowflakeGenerator ga = SnowflakeGenerator.builder().layout(LAYOUT).clock(clock).machineId(a)
                    .onClockBackwards(ClockBackwardsPolicy.waitUpTo(Duration.ofMillis(step + 100))).build();
            Maker ma = Maker.start(ga, "A");
            ma.awaitIds();
            long renewEvery = a.timings().renewEvery().toMillis();
            offset.set(step);
            pause(3 * renewEvery);
            offset.set(0);
            pause(3 * renewEvery);
            ma.stop();
            check(ma.refusals() == 0, "clock step: " + ma.refusals() + " calls refused for a step of " + step + " ms");
            check(a.losses() == 0 && a.isHeld(), "clock step: the lease was lost: " + a);
            a.close();
            return new Result("clock step inside the bound", 0, 0, "steps of +" + step + " and -" + step
                    + " ms: " + ma.made() + " IDs, no refusal");
        }
    }

    // ------------------------------------------------------------------ helpers

    private static StoreLease hold(LeaseBackend.Connection c, Consumer<LeaseBuilder<?, ?>> settings, String what) {
        StoreLease lease = tryHold(c, settings);
        check(lease != null && lease.isHeld(), "expected: " + what + "; got " + lease);
        return lease;
    }

    /**
     * Acquires, and drives a claim that waits for its floor (the scenarios' leases renew only when
     * told) until it holds, for at most a ttl: the floor of an id just released is the last
     * millisecond its holder used, so the next claim may wait for the clock to pass it.
     */
    private static StoreLease tryHold(LeaseBackend.Connection c, Consumer<LeaseBuilder<?, ?>> settings) {
        LeaseBuilder<?, ?> b = c.builder();
        settings.accept(b);
        StoreLease lease;
        try {
            lease = b.acquire();
        } catch (MachineIdLeaseException e) {
            return null;
        }
        long end = System.nanoTime() + lease.timings().ttl().toNanos();
        while (lease.phase() == LeaseState.CLAIMING && System.nanoTime() - end < 0) {
            pause(1);
            lease.renewNow();
        }
        return lease;
    }

    /**
     * Tries until the id is free (a release or a claim that failed leaves an id to expire) and the
     * claim holds (a claim may wait for its floor: a store that forgot, a restart).
     */
    private static StoreLease holdWithin(LeaseBackend.Connection c, Consumer<LeaseBuilder<?, ?>> settings,
            Duration limit, String what) {
        long end = System.nanoTime() + limit.toNanos();
        StoreLease lease = tryHold(c, settings);
        while (lease == null && System.nanoTime() - end < 0) {
            pause(50);
            lease = tryHold(c, settings);
        }
        while (lease != null && !lease.isHeld() && System.nanoTime() - end < 0) {
            pause(20);
            lease.renewNow();
        }
        check(lease != null && lease.isHeld(), "expected within " + limit.toMillis() + " ms: " + what + "; got "
                + lease);
        return lease;
    }

    /** How long a claimer may wait for an id the store gives on: three ttls and a margin for a loaded machine. */
    private static Duration limit(LeaseBackend.Connection c) {
        return c.builder().timings(true).ttl().multipliedBy(3).plusSeconds(5);
    }

    private static SnowflakeGenerator generator(StoreLease lease, InstantSource clock) {
        return SnowflakeGenerator.builder().layout(LAYOUT).clock(clock).machineId(lease).build();
    }

    private static Set<Long> make(SnowflakeGenerator g, int n) {
        Set<Long> ids = new HashSet<>();
        for (int i = 0; i < n; i++) {
            ids.add(g.nextLong());
        }
        return ids;
    }

    private static boolean refused(SnowflakeGenerator g) {
        try {
            g.nextLong();
            return false;
        } catch (MachineIdLostException e) {
            return true;
        }
    }

    private static long intersection(Set<Long> a, Set<Long> b) {
        return a.stream().filter(b::contains).count();
    }

    private static long identical(Maker a, Maker b) {
        Set<Long> bs = new HashSet<>();
        for (long id : b.ids()) {
            bs.add(id);
        }
        return Arrays.stream(a.ids()).filter(bs::contains).count();
    }

    private static void check(boolean ok, String message) {
        if (!ok) {
            throw new AssertionError(message);
        }
    }

    private static long millisSince(long nanos) {
        return (System.nanoTime() - nanos) / 1_000_000;
    }

    private static void pause(long millis) {
        LockSupport.parkNanos(millis * 1_000_000L);
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static InstantSource offset(long millis) {
        return () -> Instant.ofEpochMilli(System.currentTimeMillis() + millis);
    }

    private static void joinAll(List<Thread> threads) {
        for (Thread t : threads) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for " + t.getName(), e);
            }
        }
    }

    /** Makes IDs in small bursts until stopped, keeping each and counting refusals. */
    private static final class Maker implements Runnable {
        private final SnowflakeGenerator ids;
        private final Thread thread;
        private volatile boolean stop;
        private volatile long made;
        private volatile long refusals;
        private volatile long firstRefusalNanos;
        private long[] buf = new long[1 << 14];
        private int n;

        private Maker(SnowflakeGenerator ids, String name) {
            this.ids = ids;
            this.thread = new Thread(this, name + "-ids");
            thread.setDaemon(true);
        }

        static Maker start(SnowflakeGenerator ids, String name) {
            Maker m = new Maker(ids, name);
            m.thread.start();
            return m;
        }

        @Override
        public void run() {
            while (!stop) {
                for (int i = 0; i < 4; i++) {
                    try {
                        long id = ids.nextLong();
                        synchronized (this) {
                            if (n == buf.length) {
                                buf = Arrays.copyOf(buf, n * 2);
                            }
                            buf[n++] = id;
                        }
                        made++;
                    } catch (MachineIdLostException e) {
                        if (refusals++ == 0) {
                            firstRefusalNanos = System.nanoTime();
                        }
                    }
                }
                LockSupport.parkNanos(200_000);
            }
        }

        void awaitIds() {
            long end = System.nanoTime() + 10_000_000_000L;
            while (made < 100) {
                check(System.nanoTime() - end < 0, thread.getName() + ": no IDs in 10 s");
                pause(1);
            }
        }

        void stop() {
            stop = true;
            joinAll(List.of(thread));
        }

        long made() {
            return made;
        }

        long refusals() {
            return refusals;
        }

        long firstRefusalNanos() {
            return firstRefusalNanos;
        }

        synchronized long[] ids() {
            return Arrays.copyOf(buf, n);
        }

        long lastMillis() {
            long last = Long.MIN_VALUE;
            for (long id : ids()) {
                last = Math.max(last, LAYOUT.decode(id).timestamp().toEpochMilli());
            }
            return last;
        }
    }
}
