package dev.idgen.testkit.segment;

/**
 * What {@link TwoProcessRun} does to the store mid-run: {@link #stop()} it (a kill, a partition, a
 * server shut down), wait, then {@link #start()} it again with its data.
 */
public interface StoreOutage {

    /**
     * Makes the store unreachable for the children.
     *
     * @throws Exception if that fails; the run then fails
     */
    void stop() throws Exception;

    /**
     * Makes it reachable again, with everything it had acknowledged.
     *
     * @throws Exception if that fails; the run then fails
     */
    void start() throws Exception;
}
