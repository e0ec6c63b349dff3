package dev.idgen.spring.boot;

import dev.idgen.segment.SegmentGenerator;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * The segment generators of {@code idgen.segment.<name>.*}, by name: inject this bean and ask for
 * the counter you need.
 *
 * <pre>{@code
 * long orderNumber = segments.get("orders").nextLong();
 * }</pre>
 *
 * Closed with the application context (each generator stops fetching), before the stores it uses.
 */
public final class SegmentGenerators implements AutoCloseable {

    private final Map<String, SegmentGenerator> byName;

    SegmentGenerators(Map<String, SegmentGenerator> byName) {
        this.byName = Collections.unmodifiableMap(new TreeMap<>(byName));
    }

    /**
     * @param name a name configured under {@code idgen.segment}
     * @return its generator
     * @throws IllegalArgumentException naming the configured names if there is no such counter
     */
    public SegmentGenerator get(String name) {
        SegmentGenerator g = byName.get(name);
        if (g == null) {
            throw new IllegalArgumentException("no segment counter '" + name + "'; configured: "
                    + (byName.isEmpty() ? "none" : String.join(", ", byName.keySet()))
                    + " (add it as idgen.segment." + name + ".step=...)");
        }
        return g;
    }

    /** {@return every generator by name, sorted by name} */
    public Map<String, SegmentGenerator> all() {
        return byName;
    }

    /** Stops every generator's fetching. */
    @Override
    public void close() {
        byName.values().forEach(SegmentGenerator::close);
    }
}
