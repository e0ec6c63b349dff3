package dev.idgen.lease.spi;

/**
 * One reading of a store's clock, bracketed by two readings of the local clock (the generator's),
 * so the life can tell how far the two clocks are apart and how well it knows that.
 *
 * @param storeMillis the store's clock, Unix ms
 * @param localBeforeMillis the local clock just before the request went out
 * @param localAfterMillis the local clock just after the answer came back
 * @param restartedAtMillis when the store last started, in its own clock, if it can lose acknowledged
 *     writes in a restart (a Redis without an append-only file); {@link Long#MIN_VALUE} otherwise
 * @param hasClock false for a store that shows no clock (etcd): the reading is then the local clock,
 *     and the life assumes every holder's clock within the skew bound of true time instead of
 *     measuring it, which doubles the bound in every fence
 */
public record StoreTime(long storeMillis, long localBeforeMillis, long localAfterMillis, long restartedAtMillis,
        boolean hasClock) {

    /**
     * A reading of a store that has a clock and keeps what it acknowledged across restarts.
     *
     * @param storeMillis the store's clock
     * @param localBeforeMillis the local clock before the request
     * @param localAfterMillis the local clock after the answer
     * @return the reading
     */
    public static StoreTime of(long storeMillis, long localBeforeMillis, long localAfterMillis) {
        return new StoreTime(storeMillis, localBeforeMillis, localAfterMillis, Long.MIN_VALUE, true);
    }

    /**
     * The local clock standing in for a store that has none.
     *
     * @param localMillis the local clock
     * @return the reading
     */
    public static StoreTime local(long localMillis) {
        return new StoreTime(localMillis, localMillis, localMillis, Long.MIN_VALUE, false);
    }

    /** {@return the store's clock minus the local clock at the middle of the request} */
    public long skewMillis() {
        long span = Math.max(0, localAfterMillis - localBeforeMillis);
        return storeMillis - (localBeforeMillis + span / 2);
    }

    /** {@return how well {@link #skewMillis()} is known: half the request's duration, rounded up} */
    public long uncertaintyMillis() {
        return (Math.max(0, localAfterMillis - localBeforeMillis) + 1) / 2;
    }
}
