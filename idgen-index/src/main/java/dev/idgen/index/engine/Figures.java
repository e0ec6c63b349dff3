package dev.idgen.index.engine;

import java.util.Map;

/**
 * What an engine's own instruments say about the primary-key index after a run.
 *
 * @param leafPages leaf pages of the primary-key index
 * @param internalPages internal (branch) pages, where the engine tells them; -1 when it does not
 * @param leafFill how full the leaf pages are, 0 to 1, as the engine measures it (see
 *     {@link Database} for each engine's definition)
 * @param indexBytes bytes of the primary-key index (for a clustered index: of the table; InnoDB: its leaf pages)
 * @param extra the other figures, in the order to print, names in the engine's own words
 */
public record Figures(long leafPages, long internalPages, double leafFill, long indexBytes, Map<String, Object> extra) {

    /** Copies the map. */
    public Figures {
        extra = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(extra));
    }
}
