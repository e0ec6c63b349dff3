package dev.idgen.lease.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.machine.MachineIdLostException;
import dev.idgen.snowflake.SnowflakeGenerator;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A Redis that evicts, accepted with {@code acceptEviction(true)}: a private {@code redis-server}
 * under {@code allkeys-random}, filled past its {@code maxmemory} until the holder's record is
 * evicted. The holder stops making IDs at its next renewal, nobody repeats an ID, and a claim of the
 * evicted id starts above everything its holder made.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@Tag("slow")
class RedisEvictionProbeTest {

    @Test
    void aRecordEvictedUnderMemoryPressureStopsItsHolderAndNoIdRepeats() throws Exception {
        try (TestRedis.Server server = new TestRedis.Server("--maxmemory-policy", "allkeys-random");
                TestRedis redis = server.redis()) {
            RedisCommands<String, String> admin = redis.connect().sync();
            RedisLeaseStore store = redis.newStore(redis.connect());
            server.awaitUptimeAbove(Duration.ofMillis(3000));
            RedisMachineIdLease a = TestRedis.acquire(RedisLeaseFaultTest.builder(redis, "A").maxMachineId(0).acceptEviction(true)
                    .background(false)); // renewed by the test
            SnowflakeGenerator aIds = SnowflakeGenerator.builder().machineId(a).build();
            List<Long> aMade = new ArrayList<>();
            for (int i = 0; i < 1_000; i++) {
                aMade.add(aIds.nextLong());
            }
            long used = Long.parseLong(RedisLeaseStoreTest.field(admin.info("memory"), "used_memory"));
            admin.configSet("maxmemory", Long.toString(used + (1 << 20)));
            String junk = "x".repeat(8 << 10);
            int writes = 0;
            long renewed = System.nanoTime();
            boolean renewing = true;
            while (renewing && admin.exists(store.idKey(0)) == 1) { // each write past maxmemory evicts a random key
                admin.set("junk:" + writes++, junk);
                if (System.nanoTime() - renewed > TimeUnit.MILLISECONDS.toNanos(300)) {
                    renewing = a.renewNow();
                    renewed = System.nanoTime();
                    aMade.add(aIds.nextLong());
                }
                if (writes > 1_000_000) {
                    throw new AssertionError("the record of machine id 0 was never evicted");
                }
            }
            boolean namespaceEvicted = admin.exists(store.namespaceKey()) == 0;
            admin.configSet("maxmemory", "0"); // no more evictions from here on
            assertFalse(renewing && a.renewNow(), "A's renewal finds its record gone");
            assertThrows(MachineIdLostException.class, aIds::nextLong, "A stops at once");

            // B's claim of the evicted id waits until no ID of A's can be in its way
            long asked = System.currentTimeMillis();
            RedisMachineIdLease b = RedisLeaseFaultTest.acquireWhenFree(RedisLeaseFaultTest.builder(redis, "B")
                    .maxMachineId(0).acceptEviction(true).background(false), Duration.ofSeconds(20));
            long waited = System.currentTimeMillis() - asked;
            SnowflakeGenerator bIds = SnowflakeGenerator.builder().machineId(b).build();
            List<Long> bMade = new ArrayList<>();
            for (int i = 0; i < 1_000; i++) {
                bMade.add(bIds.nextLong());
            }
            assertTrue(bMade.get(0) > Collections.max(aMade), "B's first ID is above A's last");
            assertEquals(0, RedisLeaseFaultTest.common(aMade, bMade), "IDs A and B have in common");
            System.out.printf("Redis allkeys-random: the record of machine id 0 evicted after %,d writes of 8 KiB (the"
                    + " namespace record %s); A refused at its next renewal; B claimed the id %d ms later (ttl %d ms)%n",
                    writes, namespaceEvicted ? "too" : "kept", waited, a.timings().ttl().toMillis());
            a.close();
            b.close();
        }
    }
}
