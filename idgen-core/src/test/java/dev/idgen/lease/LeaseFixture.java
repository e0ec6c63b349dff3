package dev.idgen.lease;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

import dev.idgen.clock.ClockBackwardsPolicy;
import dev.idgen.machine.MachineIdLease;
import dev.idgen.machine.MachineIdLostException;
import dev.idgen.snowflake.SnowflakeGenerator;
import dev.idgen.snowflake.SnowflakeLayout;
import java.time.Duration;
import java.time.InstantSource;
import java.util.HashSet;
import java.util.Set;

/**
 * One in-memory store, a clock set by hand and leases on it with the tests' timings: ttl 3 s,
 * renewal every 400 ms, margin 300 ms, skew bound 400 ms (fence offset 700 ms, headroom 1.1 s, call
 * timeout 366 ms, silence bound 1,533 ms), ids 0..3 unless a test says otherwise, no renewal thread.
 */
final class LeaseFixture {

    static final long T0 = 1_800_000_000_000L;
    static final long OFFSET = 700;
    static final long SILENCE = 1_533;
    static final long TTL = 3_000;
    static final long CALL_TIMEOUT = 366;

    final LeaseClock clock = new LeaseClock(T0);
    final InMemoryLeaseStore memory = new InMemoryLeaseStore(clock, "in test");

    /** {@return a way to the store of its own, with faults a test can set} */
    FaultyStore store() {
        return new FaultyStore(memory);
    }

    StoreLease.Builder lease(FaultyStore store, String owner) {
        return StoreLease.builder(store).clock(clock).owner(owner).background(false).ttl(Duration.ofMillis(TTL))
                .renewEvery(Duration.ofMillis(400)).safetyMargin(Duration.ofMillis(300))
                .maxClockSkew(Duration.ofMillis(400)).maxMachineId(3);
    }

    StoreLease.Builder lease(String owner) {
        return lease(store(), owner);
    }

    /** {@return a Twitter-layout generator on {@code lease}, reading {@code c}, refusing a clock behind its last tick} */
    static SnowflakeGenerator ids(MachineIdLease lease, InstantSource c) {
        return ids(lease, c, ClockBackwardsPolicy.refuse());
    }

    static SnowflakeGenerator ids(MachineIdLease lease, InstantSource c, ClockBackwardsPolicy policy) {
        return SnowflakeGenerator.builder().layout(SnowflakeLayout.TWITTER).clock(c).machineId(lease)
                .onClockBackwards(policy).build();
    }

    SnowflakeGenerator ids(MachineIdLease lease) {
        return ids(lease, clock);
    }

    static Set<Long> make(SnowflakeGenerator g, int n) {
        Set<Long> made = new HashSet<>();
        for (int i = 0; i < n; i++) {
            made.add(g.nextLong());
        }
        return made;
    }

    static long millisOf(SnowflakeGenerator g, long id) {
        return g.decode(id).timestamp().toEpochMilli();
    }

    /**
     * Asserts that {@code g} makes no ID now; a failure names the ID it made, and says so when
     * {@code others} (another holder's IDs) holds it too.
     */
    static void assertNoId(SnowflakeGenerator g, Set<Long> others, String why) {
        assertThrows(MachineIdLostException.class, () -> {
            long id = g.nextLong();
            fail(why + ": made " + g.decode(id) + (others.contains(id) ? ", an ID the other holder made too" : ""));
        }, why);
    }
}
