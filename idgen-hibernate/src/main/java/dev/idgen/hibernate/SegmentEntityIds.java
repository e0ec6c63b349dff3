package dev.idgen.hibernate;

import dev.idgen.IdGenerator;
import dev.idgen.LongIdGenerator;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/** {@link EntityIds#withSegments}: another {@code EntityIds} plus one segment generator per counter name. */
final class SegmentEntityIds implements EntityIds {

    private final EntityIds others;
    private final Function<String, ? extends LongIdGenerator> factory;
    // one generator per name: two attributes naming one counter count through the same ranges
    // instead of each holding (and, on shutdown, dropping) its own
    private final Map<String, LongIdGenerator> byName = new ConcurrentHashMap<>();

    SegmentEntityIds(EntityIds others, Function<String, ? extends LongIdGenerator> factory) {
        this.others = others;
        this.factory = factory;
    }

    @Override
    public LongIdGenerator snowflake() {
        return others.snowflake();
    }

    @Override
    public IdGenerator<UUID> uuidV7() {
        return others.uuidV7();
    }

    @Override
    public LongIdGenerator segment(String name) {
        return byName.computeIfAbsent(name, n -> {
            LongIdGenerator made = factory.apply(n);
            if (made == null) {
                throw new IllegalStateException("The segment factory given to EntityIds.withSegments returned null"
                        + " for counter '" + n + "'");
            }
            return made;
        });
    }

    @Override
    public String toString() {
        return others + " with segments " + byName.keySet();
    }
}
