package dev.idgen.lease.zookeeper;

/**
 * The timings of one ZooKeeper lease, checked against the inequalities of
 * docs/lease-safety-zookeeper.md once the session timeout is negotiated.
 *
 * <p>A fence lasts {@code headroom = sessionTimeout - 2 * maxSkew - margin} past the local time of
 * the contact it comes from, at worst (this holder's clock {@code maxSkew} ahead), and it comes from
 * the second-to-last contact; so two contact intervals must fit in it, or the generator refuses IDs
 * between contacts. The interval must also leave a follower time to tell the leader of the previous
 * contact ({@code lag = serverTickTime / 2 + margin}), or no contact confirms another.
 *
 * @param sessionMillis the negotiated session timeout
 * @param maxSkewMillis the skew bound
 * @param marginMillis the margin
 * @param lagMillis the shortest useful gap between contacts
 * @param contactEveryMillis the interval between contacts
 */
record LeaseTimings(long sessionMillis, long maxSkewMillis, long marginMillis, long lagMillis,
        long contactEveryMillis) {

    /**
     * Picks the contact interval (a third of the headroom unless given, never below the lag) and
     * checks it.
     *
     * @param contactEveryMillis the interval asked for, or 0 for the default
     * @throws IllegalArgumentException naming the numbers when the inequalities fail
     */
    static LeaseTimings of(long sessionMillis, long maxSkewMillis, long marginMillis, long lagMillis,
            long contactEveryMillis) {
        long headroom = sessionMillis - 2 * maxSkewMillis - marginMillis;
        long every = contactEveryMillis > 0 ? contactEveryMillis : Math.max(lagMillis, headroom / 3);
        if (every < lagMillis) {
            throw new IllegalArgumentException("contactEvery " + every + " ms is shorter than the " + lagMillis
                    + " ms a ZooKeeper follower may take to report a contact to the leader (serverTickTime / 2"
                    + " + margin " + marginMillis + " ms); use at least " + lagMillis + " ms");
        }
        if (headroom < 2 * every) {
            throw new IllegalArgumentException("session timeout " + sessionMillis + " ms is too short for a clock"
                    + " skew bound of " + maxSkewMillis + " ms: a fence lasts sessionTimeout - 2 x maxClockSkew"
                    + " - margin = " + sessionMillis + " - " + 2 * maxSkewMillis + " - " + marginMillis + " = "
                    + headroom + " ms past a contact, and must cover 2 contact intervals (2 x " + every + " = "
                    + 2 * every + " ms); use a session of at least " + (2 * every + 2 * maxSkewMillis + marginMillis)
                    + " ms, a smaller maxClockSkew, or a shorter contactEvery/serverTickTime");
        }
        return new LeaseTimings(sessionMillis, maxSkewMillis, marginMillis, lagMillis, every);
    }
}
