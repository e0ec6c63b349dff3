package dev.idgen.random.cracfake;

/**
 * Shaped like {@code jdk.crac.Context}.
 *
 * @param <R> the resources it holds
 */
public abstract class Context<R extends Resource> implements Resource {

    /** For subclasses. */
    protected Context() {
    }

    /** @param resource told of each checkpoint and restore from now on */
    public abstract void register(R resource);
}
