package dev.idgen;

import java.util.function.LongSupplier;

/**
 * A generator of {@code long} IDs with an allocation-free path, {@link #nextLong()}.
 *
 * <p>{@link #next()} and {@link #getAsLong()} are {@link #nextLong()} boxed or renamed; each call
 * of any of them makes one new ID.
 */
public interface LongIdGenerator extends IdGenerator<Long>, LongSupplier {

    /**
     * Returns a new ID without allocating.
     *
     * @return an ID this generator has never returned before
     * @throws IllegalStateException when no ID can be made without breaking the generator's promises
     */
    long nextLong();

    /** {@inheritDoc} */
    @Override
    default Long next() {
        return nextLong();
    }

    /** Same as {@link #nextLong()}. */
    @Override
    default long getAsLong() {
        return nextLong();
    }
}
