package dev.idgen.segment.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.segment.SegmentGenerator;
import dev.idgen.segment.spi.SegmentGrant;
import dev.idgen.testkit.lease.BlackholeProxy;
import java.net.URI;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A commit lost on the wire: the grant reaches the database and commits, and its answer never
 * reaches the client (a proxy drops every byte the server sends from the grant's statement on).
 * The grant is not idempotent, so the source must neither use nor retry it: the call fails, the
 * counter in the database has moved by the step (the commit happened), and every later grant, and
 * every number a generator hands out, lies above it.
 */
@Tag("slow")
class JdbcWireLossTest {

    @ParameterizedTest
    @EnumSource(value = SegmentDatabase.class, names = {"POSTGRESQL", "MARIADB"})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aGrantWhoseAnswerIsLostIsNeverUsed(SegmentDatabase db) throws Exception {
        String table = SegmentDatabase.freshTable();
        JdbcSegmentSource.builder(db.dataSource()).table(table).createTable(true).build().grant("orders", 100);
        URI server = URI.create(db.url().substring(5));
        try (BlackholeProxy proxy = new BlackholeProxy(server.getPort())) {
            // every read ends within 2 s: an answer that never comes must end as an error, not a hang
            String url = db == SegmentDatabase.POSTGRESQL
                    ? "jdbc:postgresql://127.0.0.1:" + proxy.port() + server.getPath() + "?socketTimeout=2"
                    : "jdbc:mariadb://127.0.0.1:" + proxy.port() + server.getPath() + "?socketTimeout=2000";
            JdbcSegmentSource source = JdbcSegmentSource.builder(new SegmentDatabase.Direct(url, db.user)).table(table)
                    .build();

            proxy.dropAnswersAfter(table); // the grant's statement names the table; its answer is lost
            IllegalStateException lost = assertThrows(IllegalStateException.class, () -> source.grant("orders", 100));
            assertTrue(proxy.droppingAnswers(), "the grant's statement went through the proxy");
            assertTrue(lost.getMessage().startsWith("could not grant 100 numbers of 'orders' from jdbc"), lost.getMessage());
            assertEquals(200, SegmentTwoProcessTest.lastValue(db, table, "orders"),
                    "the database committed the grant whose answer was lost: 101..200 is counted and never handed out");

            proxy.forwardAnswers();
            SegmentGrant next = source.grant("orders", 100);
            assertEquals(201, next.first(), "the next grant lies above the lost one");
            Set<Long> seen = new HashSet<>();
            try (SegmentGenerator g = SegmentGenerator.builder().source(source).name("orders").step(100)
                    .maxWait(Duration.ofSeconds(10)).build()) {
                for (int i = 0; i < 1000; i++) {
                    long n = g.nextLong();
                    assertTrue(n > 300 && seen.add(n), "number " + n + " repeats or lies in a range used or lost");
                }
            }
        } finally {
            db.drop(table);
        }
    }
}
