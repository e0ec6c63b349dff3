package dev.idgen.machine.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.machine.MachineIdLease;
import org.junit.jupiter.api.Test;

class LeaseMarkTest {

    /** A generator reduced to its mark: raising keeps the higher value, as the real ones do. */
    private static final class MarkOnly implements MachineIdUser {
        long mark = MachineIdLease.NO_MARK;

        @Override
        public long highWaterMark() {
            return mark;
        }

        @Override
        public void raiseHighWaterMark(long unixMillis) {
            mark = Math.max(mark, unixMillis);
        }

        long fence = 0;

        @Override
        public void fenceFrom(long unixMillis) {
            fence = unixMillis;
        }
    }

    @Test
    void aGeneratorIsFencedUntilTheLeaseOpensTheFenceAndFollowsItAfter() {
        LeaseMark m = new LeaseMark("machine id 3", 1_000);
        MarkOnly early = new MarkOnly();
        m.attach(early);
        assertEquals(Long.MIN_VALUE, early.fence, "attached before any fence was set: refuse every id");
        m.fenceFrom(5_000);
        assertEquals(5_000, early.fence);
        assertEquals(5_000, m.fenceMillis());

        LeaseMark opened = new LeaseMark("machine id 4", 1_000);
        opened.fenceFrom(7_000);
        MarkOnly late = new MarkOnly();
        opened.attach(late);
        assertEquals(7_000, late.fence, "a generator attached after the fence moved gets the fence at once");
    }

    @Test
    void theMarkOnlyRises() {
        LeaseMark m = new LeaseMark("machine id 3", 1_000);
        m.raiseTo(900);
        assertEquals(1_000, m.millis());
        m.raiseTo(1_500);
        assertEquals(1_500, m.millis());
    }

    @Test
    void attachingRaisesTheGeneratorAndApplyRaisesItAgainAfterTheMarkRose() {
        LeaseMark m = new LeaseMark("machine id 3", 1_000);
        MarkOnly generator = new MarkOnly();
        m.attach(generator);
        assertEquals(1_000, generator.mark);
        m.raiseTo(2_000);
        assertEquals(1_000, generator.mark, "raiseTo alone leaves the generator where it was");
        m.applyToGenerator();
        assertEquals(2_000, generator.mark);
    }

    @Test
    void whatIsRecordedIsTheHigherOfTheMarkAndTheGenerators() {
        LeaseMark m = new LeaseMark("machine id 3", 1_000);
        assertEquals(1_000, m.toRecord(), "no generator yet");
        MarkOnly generator = new MarkOnly();
        m.attach(generator);
        generator.mark = 5_000; // the generator made IDs up to here
        assertEquals(5_000, m.toRecord());
    }

    @Test
    void aSecondGeneratorIsRefusedNamingTheLease() {
        LeaseMark m = new LeaseMark("machine id 3 in table ids", MachineIdLease.NO_MARK);
        MarkOnly first = new MarkOnly();
        m.attach(first);
        m.attach(first); // the same one again is harmless
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> m.attach(new MarkOnly()));
        assertTrue(e.getMessage().contains("machine id 3 in table ids"), e.getMessage());
        assertTrue(e.getMessage().contains("one generator per lease"), e.getMessage());
    }
}
