package dev.idgen.segment.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.segment.spi.SegmentStoreRefusedException;
import dev.idgen.testkit.segment.CrashRestartRun;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A private PostgreSQL and a private MariaDB, each killed ({@code SIGKILL}, the server and every
 * process it started) right after a grant and started again, five times: with their durable
 * defaults every grant is kept (crash recovery brings back each commit the client saw); started
 * again with settings that acknowledge a commit before it is on disk, the source refuses them,
 * naming each setting. Tagged {@code slow}: creating the servers takes most of its time.
 */
@Tag("slow")
class JdbcStoreCrashTest {

    private static final int KILLS = 5;

    @ParameterizedTest
    @EnumSource(CrashableDatabase.Engine.class)
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void everyGrantSurvivesAKillRightAfterItAndLossySettingsAreRefused(CrashableDatabase.Engine engine)
            throws Exception {
        try (CrashableDatabase db = new CrashableDatabase(engine, List.of())) {
            String table = SegmentDatabase.freshTable();
            SegmentDatabase.Direct ds = new SegmentDatabase.Direct(db.url(), db.user());
            CrashRestartRun.Report r = CrashRestartRun.run(round -> JdbcSegmentSource.builder(ds).table(table)
                    .createTable(true).build(), db, "orders", 100, KILLS, 3, Duration.ofSeconds(60));
            System.out.println(db + " (defaults): " + r.summary());
            assertNull(r.refusal());
            assertEquals(KILLS, r.rounds());
            assertEquals(0, r.repeats(), r.summary());
            assertEquals((KILLS * 3 + 1) * 100L, r.numbers());

            db.stop();
            db.settings(engine == CrashableDatabase.Engine.POSTGRESQL
                    ? List.of("fsync=off", "synchronous_commit=off")
                    : List.of("innodb-flush-log-at-trx-commit=0"));
            db.start();
            SegmentStoreRefusedException e = assertThrows(SegmentStoreRefusedException.class,
                    () -> JdbcSegmentSource.builder(ds).table(table).build());
            System.out.println(db + ": " + e.getMessage());
            if (engine == CrashableDatabase.Engine.POSTGRESQL) {
                assertTrue(e.getMessage().contains("fsync is off (") && e.getMessage().contains("synchronous_commit is"
                        + " off ("), e.getMessage());
            } else {
                assertTrue(e.getMessage().contains("innodb_flush_log_at_trx_commit is 0 (the redo log is written once a"
                        + " second, so a crash of the server loses up to a second of grants; set it to 1)"),
                        e.getMessage());
            }
        }
    }
}
