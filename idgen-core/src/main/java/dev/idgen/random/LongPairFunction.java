package dev.idgen.random;

/**
 * Makes something of two {@code long}s, for {@link RandomSource#nextTwoLongs(LongPairFunction)}.
 *
 * @param <T> what is made
 */
@FunctionalInterface
public interface LongPairFunction<T> {

    /**
     * @param first the first 64 random bits
     * @param second the second 64 random bits
     * @return what is made of them
     */
    T apply(long first, long second);
}
