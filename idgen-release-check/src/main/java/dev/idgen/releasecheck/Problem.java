package dev.idgen.releasecheck;

/**
 * One thing Central would reject, or the release would lack.
 *
 * @param artifact the artifact it is about, for example {@code dev.idgen:idgen-core}, or the file
 * @param missing what is missing or wrong, in words
 */
public record Problem(String artifact, String missing) {

    @Override
    public String toString() {
        return artifact + ": " + missing;
    }
}
