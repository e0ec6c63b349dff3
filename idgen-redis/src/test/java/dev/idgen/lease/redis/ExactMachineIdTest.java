package dev.idgen.lease.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.idgen.machine.MachineIdLeaseException;
import dev.idgen.snowflake.SnowflakeGenerator;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code machineId(long)} on Redis: a configured id claimed exactly, a second claimer refused by name, no moving. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ExactMachineIdTest {

    private final List<Runnable> cleanup = new ArrayList<>();
    private TestRedis redis;

    @BeforeEach
    void connect() {
        redis = TestRedis.shared("exact");
    }

    @AfterEach
    void cleanUp() {
        Collections.reverse(cleanup);
        cleanup.forEach(Runnable::run);
        redis.close();
    }

    private RedisMachineIdLease track(RedisMachineIdLease lease) {
        cleanup.add(lease::close);
        return lease;
    }

    private RedisMachineIdLease.Builder builder() {
        return RedisMachineIdLease.builder(redis.connect()).keyPrefix(redis.prefix).background(false);
    }

    private static void await(String what, Duration limit, BooleanSupplier condition) {
        long end = System.nanoTime() + limit.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - end > 0) {
                fail("not within " + limit.toMillis() + " ms: " + what);
            }
            LockSupport.parkNanos(50_000_000L); // a real server: ask again in 50 ms
        }
    }

    @Test
    void aSecondClaimerOfTheSameIdFailsNamingTheFirst() {
        RedisMachineIdLease first = track(builder().maxMachineId(9).machineId(5).owner("first-instance").acquire());
        assertEquals(5, first.machineId(), "the exact id, not the lowest free one (0)");
        long before = System.currentTimeMillis();
        MachineIdLeaseException e = assertThrows(MachineIdLeaseException.class,
                () -> builder().maxMachineId(9).machineId(5).owner("second-instance").acquire());
        long after = System.currentTimeMillis();
        String m = e.getMessage();
        assertTrue(m.startsWith("Machine id 5 at Redis key " + redis.prefix + "{5} is held by a live lease of owner"
                + " 'first-instance' (token 1) until "), m);
        Matcher until = Pattern.compile("until (\\S+) by Redis's clock").matcher(m);
        assertTrue(until.find(), m);
        long expires = Instant.parse(until.group(1)).toEpochMilli();
        assertTrue(expires > before + 25_000 && expires < after + 35_000, "about one TTL (30 s) ahead: " + m);
        assertEquals(0, track(builder().maxMachineId(9).acquire()).machineId(), "others still claim the lowest");

        IllegalArgumentException above = assertThrows(IllegalArgumentException.class,
                () -> builder().maxMachineId(9).machineId(10).acquire());
        assertEquals("machineId = 10 is above maxMachineId = 9; allowed: 0..9 (raise maxMachineId, or give the layout,"
                + " for a wider id)", above.getMessage());
        assertThrows(IllegalArgumentException.class, () -> builder().machineId(-1));
    }

    @Test
    void aLostExactIdStaysFencedUntilItsOwnIdIsFree() {
        RedisMachineIdLease.Builder b = RedisLeaseBackend.timings(builder()).maxMachineId(9).machineId(3);
        RedisMachineIdLease a = track(b.owner("a").acquire());
        SnowflakeGenerator aIds = SnowflakeGenerator.builder().machineId(a).build();
        long aLast = 0;
        for (int i = 0; i < 1000; i++) {
            aLast = aIds.nextLong();
        }
        assertTrue(a.renewNow());
        RedisMachineIdLease[] bLease = new RedisMachineIdLease[1];
        await("B claims id 3 once A's claim expired", Duration.ofSeconds(15), () -> {
            try {
                bLease[0] = b.owner("b").acquire();
                return true;
            } catch (MachineIdLeaseException e) {
                assertTrue(e.getMessage().contains("owner 'a'"), e.getMessage());
                return false;
            }
        });
        RedisMachineIdLease bl = track(bLease[0]);
        assertEquals(3, bl.machineId());
        assertTrue(SnowflakeGenerator.builder().machineId(bl).build().nextLong() > aLast, "B starts above A's IDs");
        assertFalse(a.renewNow(), "A's id is taken; ids 0..2, 4..9 are free, yet A does not move");
        assertEquals(3, a.machineId());
        assertFalse(a.isHeld());
    }
}
