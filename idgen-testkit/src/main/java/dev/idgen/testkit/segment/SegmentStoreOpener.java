package dev.idgen.testkit.segment;

import dev.idgen.segment.spi.SegmentSource;
import java.util.List;

/**
 * How a child JVM of {@link TwoProcessRun} reaches the store under test. A store's tests implement
 * it in a public class with a public no-argument constructor; the child finds it by name on its
 * class path (the tests' own) and calls {@link #open(List)} once.
 */
public interface SegmentStoreOpener {

    /**
     * Connects to the store. The clients made here live until the child exits; a client that
     * reconnects by itself after the store comes back is what the run is meant to exercise.
     *
     * @param args the arguments given to {@link TwoProcessRun.Builder#opener(Class, String...)}, e.g. a
     *     URL and a key prefix
     * @return the source the child's generator takes ranges from
     * @throws Exception if the store cannot be reached at all
     */
    SegmentSource open(List<String> args) throws Exception;
}
