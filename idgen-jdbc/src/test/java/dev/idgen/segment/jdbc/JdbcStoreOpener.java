package dev.idgen.segment.jdbc;

import dev.idgen.segment.spi.SegmentSource;
import dev.idgen.segment.spi.SegmentStoreRefusedException;
import dev.idgen.testkit.segment.SegmentStoreOpener;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/** The children of {@link SegmentTwoProcessTest} reach PostgreSQL with this: arguments JDBC URL, table. */
public final class JdbcStoreOpener implements SegmentStoreOpener {

    /** For the child, which makes it by reflection. */
    public JdbcStoreOpener() {
    }

    /**
     * Builds the source, asking again for up to 30 s: its URL's 2 s timeouts are for the outage, and
     * the first connection (before any outage) may take longer on a machine loaded by other builds.
     */
    @Override
    public SegmentSource open(List<String> args) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        for (;;) {
            try {
                return JdbcSegmentSource.builder(new SegmentDatabase.Direct(args.get(0), "postgres")).table(args.get(1))
                        .queryTimeout(Duration.ofSeconds(2)).build();
            } catch (SegmentStoreRefusedException e) {
                throw e;
            } catch (IllegalStateException e) {
                if (System.nanoTime() - deadline > 0) {
                    throw e;
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200));
            }
        }
    }
}
