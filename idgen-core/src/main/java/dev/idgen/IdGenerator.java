package dev.idgen;

/**
 * Makes IDs. Implementations are thread-safe and never return the same ID twice.
 *
 * @param <T> the type of ID made
 */
@FunctionalInterface
public interface IdGenerator<T> {

    /**
     * Returns a new ID.
     *
     * @return an ID this generator has never returned before
     * @throws IllegalStateException when no ID can be made without breaking the generator's
     *     promises (for example a clock that moved backwards, or a machine-id lease that was lost)
     */
    T next();
}
