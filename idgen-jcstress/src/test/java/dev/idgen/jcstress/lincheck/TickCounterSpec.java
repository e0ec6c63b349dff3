package dev.idgen.jcstress.lincheck;

/**
 * The sequential specification every time-ordered generator here is checked against: with a clock
 * that only moves when {@link #tick()} moves it, a generator is a counter of (tick, counter) pairs.
 *
 * <ul>
 *   <li>the clock reads a tick after the last one issued: that tick, counter at its first value;</li>
 *   <li>else, room left in the tick: the last pair with the counter one higher;</li>
 *   <li>else: the next tick after the last one issued, counter at its first value (the generators
 *       under test run ahead of the clock there, within their policy's bound, or the clock has
 *       been moved on by the time they re-read it).</li>
 * </ul>
 * Subclasses turn the pair into what the operation returns. Written from the generators' documented
 * contract, not from their code.
 */
abstract class TickCounterSpec {

    private final int counterBits;
    private final long firstCounter;
    private long clockTick;
    private long lastTick = -1;
    private long counter;

    TickCounterSpec(long startTick, int counterBits, long firstCounter) {
        this.clockTick = startTick;
        this.counterBits = counterBits;
        this.firstCounter = firstCounter;
    }

    /** @return the next value, as the generator under test must return it */
    public long next() {
        long maxCounter = (1L << counterBits) - 1;
        if (clockTick > lastTick) {
            lastTick = clockTick;
            counter = firstCounter;
        } else if (counter < maxCounter) {
            counter++;
        } else {
            lastTick++;
            counter = firstCounter;
        }
        return encode(lastTick, counter);
    }

    /** The clock moves on by one tick. */
    public void tick() {
        clockTick++;
    }

    abstract long encode(long tick, long counter);
}
