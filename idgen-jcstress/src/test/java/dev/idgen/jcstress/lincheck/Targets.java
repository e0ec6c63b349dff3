package dev.idgen.jcstress.lincheck;

import dev.idgen.jcstress.broken.RacySnowflakeGenerator;
import dev.idgen.jcstress.fixture.BenchLayouts;
import dev.idgen.jcstress.fixture.FixedRandom;
import dev.idgen.jcstress.fixture.V7Fields;
import dev.idgen.segment.InMemorySegmentSource;
import dev.idgen.segment.SegmentGenerator;
import dev.idgen.sequence.CounterStart;
import dev.idgen.sequence.TickSequence;
import dev.idgen.sequence.TickSpace;
import dev.idgen.clock.ClockBackwardsPolicy;
import dev.idgen.snowflake.SnowflakeGenerator;
import dev.idgen.snowflake.SnowflakeLayout;
import dev.idgen.testkit.clock.ManualClock;
import dev.idgen.uuid.UuidV7Generator;
import java.time.Duration;
import org.jetbrains.lincheck.datastructures.Operation;

/**
 * The objects Lincheck drives, one per generator configuration, each with its sequential
 * specification. Lincheck makes a fresh target per run with the public no-argument constructor; the
 * clock stands still except when the {@code tick()} operation moves it.
 */
final class Targets {

    static final long MACHINE = 3;

    private Targets() {
    }

    /** The tick the clock starts at in the given layout. */
    static long startTick(SnowflakeLayout layout) {
        return (BenchLayouts.START_MILLIS - layout.epoch().toEpochMilli()) / layout.tickMillis();
    }

    /** Snowflake IDs of a layout in timestamp | machine | sequence order, from the documented formula. */
    abstract static class SnowflakeSpec extends TickCounterSpec {
        private final SnowflakeLayout layout;

        SnowflakeSpec(SnowflakeLayout layout) {
            super(startTick(layout), layout.sequenceBits(), 0);
            this.layout = layout;
        }

        @Override
        long encode(long tick, long sequence) {
            return tick << (layout.machineBits() + layout.sequenceBits()) | MACHINE << layout.sequenceBits() | sequence;
        }
    }

    /** Twitter's layout. */
    public static final class TwitterSpec extends SnowflakeSpec {
        public TwitterSpec() {
            super(SnowflakeLayout.TWITTER);
        }
    }

    /** 2 sequence bits: exhaustion after 4 IDs a tick. */
    public static final class TwoBitSpec extends SnowflakeSpec {
        public TwoBitSpec() {
            super(BenchLayouts.TWO_SEQUENCE_BITS);
        }
    }

    /** Twitter's layout, the default policy ({@code waitUpTo(5 ms)}). */
    public static class SnowflakeTwitter {
        private final ManualClock clock = ManualClock.atMillis(BenchLayouts.START_MILLIS);
        private final SnowflakeGenerator ids = SnowflakeGenerator.builder()
                .layout(SnowflakeLayout.TWITTER).machineId(MACHINE).clock(clock)
                .skipMachineIdRegistry().build(); // lincheck makes a target per scenario

        @Operation
        public long next() {
            return ids.nextLong();
        }

        @Operation
        public void tick() {
            clock.advanceMillis(1);
        }
    }

    /**
     * 2 sequence bits under {@code runAhead(1 day)}: an exhausted tick moves on without waiting, so
     * exhaustion is reachable with a clock that stands still.
     */
    public static class SnowflakeTwoBit {
        private final ManualClock clock = ManualClock.atMillis(BenchLayouts.START_MILLIS);
        private final SnowflakeGenerator ids = SnowflakeGenerator.builder()
                .layout(BenchLayouts.TWO_SEQUENCE_BITS).machineId(MACHINE).clock(clock)
                .onClockBackwards(ClockBackwardsPolicy.runAhead(Duration.ofDays(1)))
                .skipMachineIdRegistry().build(); // lincheck makes a target per scenario

        @Operation
        public long next() {
            return ids.nextLong();
        }

        @Operation
        public void tick() {
            clock.advanceMillis(1);
        }
    }

    /** The broken generator on the 2-bit layout: the same spec as {@link SnowflakeTwoBit}. */
    public static class RacyTwoBit {
        private final ManualClock clock = ManualClock.atMillis(BenchLayouts.START_MILLIS);
        private final RacySnowflakeGenerator ids = new RacySnowflakeGenerator(BenchLayouts.TWO_SEQUENCE_BITS, MACHINE,
                clock);

        @Operation
        public long next() {
            return ids.nextLong();
        }

        @Operation
        public void tick() {
            clock.advanceMillis(1);
        }
    }

    /** UUIDv7 counter start with {@link FixedRandom}(1000): {@code floorMod(1000, 2^15)}. */
    static final long V7_START = 1000;

    /** Monotonic UUIDv7 as {@code millis << 16 | counter}. */
    public static final class V7Spec extends TickCounterSpec {
        public V7Spec() {
            super(BenchLayouts.START_MILLIS, UuidV7Generator.COUNTER_BITS, V7_START);
        }

        @Override
        long encode(long millis, long counter) {
            return millis << UuidV7Generator.COUNTER_BITS | counter;
        }
    }

    /** The public monotonic UUIDv7 generator with its defaults, but a fixed clock and random source. */
    public static class V7 {
        private final ManualClock clock = ManualClock.atMillis(BenchLayouts.START_MILLIS);
        private final UuidV7Generator ids = UuidV7Generator.builder()
                .clock(clock).randomness(new FixedRandom(V7_START)).build();

        @Operation
        public long next() {
            return V7Fields.orderKey(ids.next());
        }

        @Operation
        public void tick() {
            clock.advanceMillis(1);
        }
    }

    /** Counter start near the top, so that a few calls roll it over. */
    static final long ROLLOVER_START = 65_533;

    /** The UUIDv7 tick sequence starting every millisecond at 65,533. */
    public static final class V7RolloverSpec extends TickCounterSpec {
        public V7RolloverSpec() {
            super(BenchLayouts.START_MILLIS, UuidV7Generator.COUNTER_BITS, ROLLOVER_START);
        }

        @Override
        long encode(long millis, long counter) {
            return millis << UuidV7Generator.COUNTER_BITS | counter;
        }
    }

    /**
     * {@code TickSequence} as {@code UuidV7Generator} builds it, but each millisecond's counter
     * starting at 65,533 (the public builder starts it below 2^15; see {@code V7CounterRolloverTest}).
     */
    public static class V7Rollover {
        private final ManualClock clock = ManualClock.atMillis(BenchLayouts.START_MILLIS);
        private final TickSequence sequence = TickSequence.builder(
                new TickSpace(0L, 1L, UuidV7Generator.LAST_MONOTONIC_INSTANT.toEpochMilli(), UuidV7Generator.COUNTER_BITS),
                clock)
                .counterStart(CounterStart.randomBelow(1L << UuidV7Generator.COUNTER_BITS, () -> ROLLOVER_START))
                .policy(ClockBackwardsPolicy.runAhead(UuidV7Generator.DEFAULT_RUN_AHEAD))
                .logAs(UuidV7Generator.class)
                .build();

        @Operation
        public long next() {
            return sequence.next();
        }

        @Operation
        public void tick() {
            clock.advanceMillis(1);
        }
    }

    /**
     * What a segment generator on a fresh store hands out: 1, 2, 3, ... in the order the calls take
     * effect (numbers are dense, and a call that starts after another returned gets a larger one).
     */
    public static final class CountingSpec {
        private long last;

        public long next() {
            return ++last;
        }
    }

    /**
     * {@code SegmentGenerator.nextLong()} over ranges of 2 numbers with one range kept ready, so
     * every other call crosses a boundary; the fetch runs on the caller that asks for it (the
     * executor runs it inline), so the model checker interleaves it with the other callers.
     */
    public static class Segments {
        private final SegmentGenerator ids = SegmentGenerator.builder().source(new InMemorySegmentSource())
                .name("lincheck").step(2).prefetch(1, 1).executor(Runnable::run).build();

        @Operation
        public long next() {
            return ids.nextLong();
        }
    }

    /** As {@link Segments} without prefetch: a caller that finds the range spent fetches the next. */
    public static class SegmentsNoPrefetch {
        private final SegmentGenerator ids = SegmentGenerator.builder().source(new InMemorySegmentSource())
                .name("lincheck").step(2).prefetch(0, 0).executor(Runnable::run).build();

        @Operation
        public long next() {
            return ids.nextLong();
        }
    }
}
