package dev.idgen.segment;

import dev.idgen.segment.spi.SegmentSource;

/**
 * A {@link BusinessNumberGenerator} was built with another pattern than the one its store has on
 * record for the same name. A business number's counter is keyed by name and date group only, so
 * two patterns under one name can write the same text for two different numbers
 * ({@code INVyyyyMMddNN} and {@code INVyyyyMMNNNN} both write {@code INV2026120301}); the store
 * keeps the first pattern used ({@link SegmentSource#recordPattern}) and every other one is refused.
 * Keep the recorded pattern, or give the new one a new name.
 */
public final class PatternConflictException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    /** The business numbers' name. */
    private final String name;
    /** The pattern on record in the store. */
    private final String recorded;
    /** The pattern refused. */
    private final String requested;

    /**
     * @param name the business numbers' name
     * @param recorded the pattern on record in the store
     * @param requested the pattern refused
     * @param store the store's description
     */
    public PatternConflictException(String name, String recorded, String requested, String store) {
        super("business numbers '" + name + "' are recorded on " + store + " with pattern " + recorded
                + "; pattern " + requested + " is refused under the same name, since the counters are kept per name"
                + " and date group and the two patterns could write the same number twice. Keep " + recorded
                + ", or give " + requested + " a name of its own");
        this.name = name;
        this.recorded = recorded;
        this.requested = requested;
    }

    /** {@return the business numbers' name} */
    public String name() {
        return name;
    }

    /** {@return the pattern on record} */
    public String recorded() {
        return recorded;
    }

    /** {@return the pattern refused} */
    public String requested() {
        return requested;
    }
}
