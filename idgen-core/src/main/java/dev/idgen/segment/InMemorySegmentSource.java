package dev.idgen.segment;

import dev.idgen.segment.spi.SegmentGrant;
import dev.idgen.segment.spi.SegmentSource;
import java.time.InstantSource;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link SegmentSource} in this process's memory: one {@link AtomicLong} per name, for tests,
 * benchmarks and a local profile. It lives in core, not in the testkit, because the benchmarks
 * (which depend on core alone) and users' own tests need it, and it needs nothing but the JDK. Its
 * numbers are unique only within this object: never use it where two processes share a name.
 *
 * <p>It counts the grants it made, so a test can check round trips against numbers handed out.
 */
public final class InMemorySegmentSource implements SegmentSource {

    private final Map<String, AtomicLong> counters = new ConcurrentHashMap<>();
    private final Map<String, String> patterns = new ConcurrentHashMap<>();
    private final AtomicLong grants = new AtomicLong();
    private final InstantSource clock;

    /** A source whose grants carry the system clock's time. */
    public InMemorySegmentSource() {
        this(InstantSource.system());
    }

    /**
     * @param clock the "store's" clock, stamped on every grant
     */
    public InMemorySegmentSource(InstantSource clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public SegmentGrant grant(String name, long step) {
        SegmentGenerator.checkName(name);
        SegmentGenerator.checkStep(step);
        // one atomic add is the whole grant: the counter holds the last number handed out
        long last = counters.computeIfAbsent(name, n -> new AtomicLong()).addAndGet(step);
        grants.incrementAndGet();
        return new SegmentGrant(last - step + 1, last, clock.instant());
    }

    @Override
    public String recordPattern(String name, String pattern) {
        SegmentGenerator.checkName(name);
        Objects.requireNonNull(pattern, "pattern");
        String before = patterns.putIfAbsent(name, pattern);
        return before == null ? pattern : before;
    }

    @Override
    public java.time.Instant now() {
        return clock.instant();
    }

    /** {@return how many grants were made, all names together} */
    public long grants() {
        return grants.get();
    }

    /**
     * @param name a counter's name
     * @return the last number granted for it, 0 if none
     */
    public long lastGranted(String name) {
        AtomicLong c = counters.get(name);
        return c == null ? 0 : c.get();
    }

    @Override
    public String describe() {
        return "in-memory";
    }
}
