package dev.idgen.testsupport;

import java.util.Locale;
import org.opentest4j.TestAbortedException;

/**
 * A server or binary a test needs and does not find. Under CI ({@code CI=true}) that is a failure:
 * {@code .ci/run} starts every server, so a missing one is a broken build, not a reason to skip.
 * Elsewhere the test is skipped, and its reason carries a {@code [needs ...; install: ...]} tag that
 * {@link SkipSummary} counts, so a run on a fresh machine ends with one line saying what to install.
 */
public final class Missing {

    private Missing() {
    }

    /** {@return whether this run is CI, where every server must be there ({@code CI=true})} */
    public static boolean underCi() {
        return "true".equalsIgnoreCase(System.getenv("CI"));
    }

    /**
     * The exception a test throws when {@code what} is missing: a failure under CI, a skip elsewhere.
     *
     * @param what the thing missing, such as {@code "MariaDB"}
     * @param detail where it was looked for and what happened, such as
     *     {@code "127.0.0.1:3306 does not answer: Connection refused"}
     * @param install the command that installs it, such as {@code "apt-get install mariadb-server"}
     * @return the exception to throw: {@link IllegalStateException} under CI, else
     *     {@link TestAbortedException}
     */
    public static RuntimeException server(String what, String detail, String install) {
        if (underCi()) {
            return new IllegalStateException(what + ": " + detail
                    + " (CI=true: the tests need every server; .ci/run starts them)");
        }
        return new TestAbortedException(what + ": " + detail + "; skipped outside CI " + tag(what, install));
    }

    /** {@return the tag {@link SkipSummary} reads: {@code [needs what; install: command]}} */
    static String tag(String what, String install) {
        return "[needs " + what + "; install: " + install + "]";
    }

    /**
     * The Debian package a binary comes in, as the install command this project's CI uses.
     *
     * @param packages Debian package names, such as {@code "redis-server"}
     * @return {@code "sudo apt-get install -y <packages>"}
     */
    public static String apt(String packages) {
        return "sudo apt-get install -y " + packages.toLowerCase(Locale.ROOT);
    }
}
