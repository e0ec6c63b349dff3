package dev.idgen.random.cracfake;

/** Shaped like {@code jdk.crac.Resource}. */
public interface Resource {

    /**
     * @param context the context that calls
     * @throws Exception when the resource refuses the checkpoint
     */
    void beforeCheckpoint(Context<? extends Resource> context) throws Exception;

    /**
     * @param context the context that calls
     * @throws Exception when the resource cannot resume
     */
    void afterRestore(Context<? extends Resource> context) throws Exception;
}
