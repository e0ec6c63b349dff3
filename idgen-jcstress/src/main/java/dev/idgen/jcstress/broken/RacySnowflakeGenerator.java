package dev.idgen.jcstress.broken;

import dev.idgen.LongIdGenerator;
import dev.idgen.snowflake.SnowflakeLayout;
import java.time.InstantSource;

/**
 * <b>Broken on purpose.</b> A Snowflake generator with the same packed (tick, sequence) state as the
 * real one, advanced by a read followed by a plain write instead of a CAS. Two threads that both
 * read the state before either writes it hand out the same ID. The jcstress suite and the Lincheck
 * tests run it to show that they catch exactly this mistake.
 *
 * <p>On an exhausted sequence, or a clock behind the last tick, it moves on from the last tick (as
 * {@code runAhead} would), so that with a clock that only moves forward it has the same sequential
 * behaviour as the real generator under {@code runAhead}: only its concurrency is wrong.
 */
public final class RacySnowflakeGenerator implements LongIdGenerator {

    private final InstantSource clock;
    private final long epochMillis;
    private final long tickMillis;
    private final int sequenceBits;
    private final long sequenceMask;
    private final int timestampShift;
    private final int sequenceShift;
    private final long machineField;

    /** {@code tick << sequenceBits | sequence}; -1 before the first ID. */
    private volatile long state = -1L;

    /**
     * @param layout the layout (its field order and widths are honoured)
     * @param machineId the machine id, within the layout
     * @param clock the clock
     */
    public RacySnowflakeGenerator(SnowflakeLayout layout, long machineId, InstantSource clock) {
        this.clock = clock;
        this.epochMillis = layout.epoch().toEpochMilli();
        this.tickMillis = layout.tickMillis();
        this.sequenceBits = layout.sequenceBits();
        this.sequenceMask = layout.maxSequence();
        this.timestampShift = layout.timestampShift();
        this.sequenceShift = layout.sequenceShift();
        this.machineField = machineId << layout.machineShift();
    }

    @Override
    public long nextLong() {
        final long prev = state;                          // read ...
        final long now = (clock.millis() - epochMillis) / tickMillis;
        final long last = prev >> sequenceBits;
        final long next;
        if (now > last) {
            next = now << sequenceBits;
        } else if ((prev & sequenceMask) != sequenceMask) {
            next = prev + 1;
        } else {
            next = (last + 1) << sequenceBits;
        }
        state = next;                                     // ... then write: the bug (no CAS)
        return (next >> sequenceBits) << timestampShift | machineField | (next & sequenceMask) << sequenceShift;
    }
}
