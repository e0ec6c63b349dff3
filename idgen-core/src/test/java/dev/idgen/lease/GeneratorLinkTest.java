package dev.idgen.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.machine.MachineIdLease;
import dev.idgen.machine.MachineIdLostException;
import dev.idgen.machine.spi.FencingLease;
import dev.idgen.machine.spi.MachineIdUser;
import dev.idgen.snowflake.SnowflakeGenerator;
import dev.idgen.snowflake.SnowflakeLayout;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The lease's end of its generator on its own, without the life around it: what it promises a
 * generator whatever order the life calls it in.
 */
class GeneratorLinkTest {

    private static final long T0 = 1_800_000_000_000L;
    private final LeaseClock clock = new LeaseClock(T0);
    private final GeneratorLink link = new GeneratorLink(SnowflakeLayout.TWITTER.signature());

    /** The lease a generator is built on: its id is the link's last switch, the link does the rest. */
    private final class Lease implements FencingLease {
        long id;

        @Override
        public long machineId() {
            return id;
        }

        @Override
        public boolean isHeld() {
            return true;
        }

        @Override
        public long highWaterMark() {
            return link.mark();
        }

        @Override
        public void attach(MachineIdUser user) {
            link.attach(user, "machine id " + id);
        }
    }

    /** A generator's view that records what the link tells it, in order. */
    private static class Recorder implements MachineIdUser {
        final List<String> calls = new ArrayList<>();
        long mark = MachineIdLease.NO_MARK;

        @Override
        public long highWaterMark() {
            return mark;
        }

        @Override
        public void raiseHighWaterMark(long unixMillis) {
            calls.add("raise " + unixMillis);
            mark = Math.max(mark, unixMillis);
        }

        @Override
        public void fenceFrom(long unixMillis) {
            calls.add("fence " + unixMillis);
        }

        @Override
        public void switchTo(long machineId) {
            calls.add("switch " + machineId);
        }
    }

    @Test
    void aSwitchShutsTheFenceSoAGeneratorThatAttachesAfterItMakesNoIdBeforeTheClaimOpens() {
        link.fenceFrom(T0 + 1_000); // the claim of id 0 was open
        link.switchTo(0, 1); // a claim of id 1 was written, not confirmed yet
        assertEquals(Long.MIN_VALUE, link.fence());
        Lease lease = new Lease();
        lease.id = 1;
        SnowflakeGenerator g = SnowflakeGenerator.builder().clock(clock).machineId(lease).build();
        assertThrows(MachineIdLostException.class, g::nextLong, "no ID of id 1 under the fence of the claim of id 0");
        link.fenceFrom(T0 + 1_000);
        assertEquals(1, g.decode(g.nextLong()).machineId());
    }

    @Test
    void anAttachedGeneratorIsShutThenRaisedToTheMarkThenMoved() {
        Recorder r = new Recorder();
        link.raiseTo(T0 + 50);
        link.attach(r, "machine id 0");
        assertEquals(List.of("raise " + (T0 + 50), "fence " + Long.MIN_VALUE), r.calls,
                "a generator that attaches is raised to the mark and given the fence");
        link.fenceFrom(T0 + 1_000);
        link.raiseTo(T0 + 500);
        r.calls.clear();
        link.switchTo(0, 1);
        assertEquals(List.of("fence " + Long.MIN_VALUE, "raise " + (T0 + 500), "switch 1"), r.calls);
    }

    @Test
    void theMarkOnlyRises() {
        assertEquals(MachineIdLease.NO_MARK, link.mark());
        link.raiseTo(T0);
        link.raiseTo(T0 - 5);
        assertEquals(T0, link.mark());
        Recorder r = new Recorder();
        link.attach(r, "machine id 0");
        r.mark = T0 + 9;
        assertEquals(T0 + 9, link.toRecord(), "the generator's own mark when it is higher");
    }

    @Test
    void aGeneratorThatCannotMoveKeepsItsIdOnAClaimOfTheSameIdAndRefusesAnother() {
        MachineIdUser fixed = new Recorder() {
            @Override
            public void switchTo(long machineId) {
                throw new UnsupportedOperationException("this generator cannot take machine id " + machineId);
            }
        };
        link.attach(fixed, "machine id 2");
        link.switchTo(2, 2);
        UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class, () -> link.switchTo(2, 3));
        assertTrue(e.getMessage().contains("machine id 3"), e.getMessage());
    }
}
