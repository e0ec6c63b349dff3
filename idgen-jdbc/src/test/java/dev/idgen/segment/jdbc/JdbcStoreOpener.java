package dev.idgen.segment.jdbc;

import dev.idgen.segment.spi.SegmentSource;
import dev.idgen.testkit.segment.SegmentStoreOpener;
import java.time.Duration;
import java.util.List;

/** The children of {@link SegmentTwoProcessTest} reach PostgreSQL with this: arguments JDBC URL, table. */
public final class JdbcStoreOpener implements SegmentStoreOpener {

    /** For the child, which makes it by reflection. */
    public JdbcStoreOpener() {
    }

    @Override
    public SegmentSource open(List<String> args) {
        return JdbcSegmentSource.builder(new SegmentDatabase.Direct(args.get(0), "postgres")).table(args.get(1))
                .queryTimeout(Duration.ofSeconds(2)).build();
    }
}
