package dev.idgen.random.cracfake;

/** Shaped like {@code jdk.crac.RestoreException}. */
public class RestoreException extends Exception {
    private static final long serialVersionUID = 1L;
}
