package dev.idgen.random.cracfake;

/** Shaped like {@code jdk.crac.CheckpointException}. */
public class CheckpointException extends Exception {
    private static final long serialVersionUID = 1L;
}
