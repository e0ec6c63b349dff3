package dev.idgen.lease.jdbc;

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
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** {@code machineId(long)}: a configured id claimed exactly, a second claimer refused by name, no moving. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ExactMachineIdTest {

    private final List<Runnable> cleanup = new ArrayList<>();

    @AfterEach
    void cleanUp() {
        Collections.reverse(cleanup);
        cleanup.forEach(Runnable::run);
    }

    private String table(TestDatabase db) {
        db.dataSource(); // a missing server skips (under CI: fails) here, before a cleanup is queued
        String t = TestDatabase.freshTable();
        cleanup.add(() -> db.drop(t));
        return t;
    }

    private JdbcMachineIdLease track(JdbcMachineIdLease lease) {
        cleanup.add(lease::close);
        return lease;
    }

    private static void await(String what, Duration limit, BooleanSupplier condition) {
        long end = System.nanoTime() + limit.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - end > 0) {
                fail("not within " + limit.toMillis() + " ms: " + what);
            }
            java.util.concurrent.locks.LockSupport.parkNanos(50_000_000L); // a real server: ask again in 50 ms
        }
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void aSecondClaimerOfTheSameIdFailsNamingTheFirst(TestDatabase db) {
        TestDatabase.Switchable ds = db.dataSource();
        String table = table(db);
        JdbcMachineIdLease first = track(JdbcMachineIdLease.builder(ds).table(table).createTable(true).maxMachineId(9)
                .machineId(5).owner("first-instance").background(false).acquire());
        assertEquals(5, first.machineId(), "the exact id, not the lowest free one (0)");
        assertFalse(first.reclaimsAnyId(), "an exact id never moves to another id");
        assertTrue(first.isHeld());

        long before = System.currentTimeMillis();
        MachineIdLeaseException e = assertThrows(MachineIdLeaseException.class, () -> JdbcMachineIdLease.builder(ds)
                .table(table).maxMachineId(9).machineId(5).owner("second-instance").background(false).acquire());
        long after = System.currentTimeMillis();
        String m = e.getMessage();
        assertTrue(m.startsWith("Machine id 5 in table " + table + " is held by a live lease of owner 'first-instance'"
                + " (token 1) until "), m);
        assertTrue(m.contains("another process runs with this id. Give this process an id of its own"), m);
        Matcher until = Pattern.compile("until (\\S+) by the database's clock").matcher(m);
        assertTrue(until.find(), m);
        long expires = Instant.parse(until.group(1)).toEpochMilli();
        // the first holder's claim runs about one TTL (30 s) past now, give or take the database's skew
        assertTrue(expires > before + 25_000 && expires < after + 35_000, m);

        // a lease with no exact id still claims the lowest free id beside it
        JdbcMachineIdLease other = track(JdbcMachineIdLease.builder(ds).table(table).maxMachineId(9).background(false)
                .acquire());
        assertEquals(0, other.machineId());
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void anIdOutsideTheRangeIsRefusedBeforeAnyClaim(TestDatabase db) {
        TestDatabase.Switchable ds = db.dataSource();
        IllegalArgumentException negative = assertThrows(IllegalArgumentException.class,
                () -> JdbcMachineIdLease.builder(ds).machineId(-1));
        assertEquals("machineId = -1 is negative; allowed: 0..maxMachineId (default 1023)", negative.getMessage());
        IllegalArgumentException above = assertThrows(IllegalArgumentException.class,
                () -> JdbcMachineIdLease.builder(ds).table(TestDatabase.freshTable()).maxMachineId(31).machineId(32)
                        .background(false).acquire());
        assertEquals("machineId = 32 is above maxMachineId = 31; allowed: 0..31 (raise maxMachineId up to the"
                + " layout's maxMachineId() for a wider id)", above.getMessage());
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void aLostExactIdStaysFencedUntilItsOwnIdIsFreeAndANewHolderStartsAboveTheMark(TestDatabase db) {
        TestDatabase.Switchable ds = db.dataSource();
        String table = table(db);
        JdbcMachineIdLease.Builder b = JdbcLeaseBackend.timings(JdbcMachineIdLease.builder(ds)).table(table)
                .createTable(true).maxMachineId(9).machineId(3).background(false);
        JdbcMachineIdLease a = track(b.owner("a").acquire());
        SnowflakeGenerator aIds = SnowflakeGenerator.builder().machineId(a).build();
        long aLast = 0;
        for (int i = 0; i < 1000; i++) {
            aLast = aIds.nextLong();
        }
        assertTrue(a.renewNow());
        // A stops renewing (a pause longer than the TTL); B, given the same id, takes it once it expires
        JdbcMachineIdLease[] bLease = new JdbcMachineIdLease[1];
        await("B claims id 3 once A's claim expired", Duration.ofSeconds(15), () -> {
            try {
                bLease[0] = b.owner("b").acquire();
                return true;
            } catch (MachineIdLeaseException e) {
                assertTrue(e.getMessage().contains("owner 'a'"), e.getMessage());
                return false;
            }
        });
        JdbcMachineIdLease bl = track(bLease[0]);
        assertEquals(3, bl.machineId());
        SnowflakeGenerator bIds = SnowflakeGenerator.builder().machineId(bl).build();
        assertTrue(bIds.nextLong() > aLast, "B starts above every ID A made");

        // A resumes: its id is taken and ids 0..2, 4..9 are free, yet it does not move
        assertFalse(a.renewNow());
        assertFalse(a.isHeld());
        assertEquals(3, a.machineId());
        assertFalse(a.renewNow(), "still fenced while B holds id 3");
        assertEquals(3, a.machineId());
    }
}
