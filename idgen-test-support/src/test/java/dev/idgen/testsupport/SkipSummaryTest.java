package dev.idgen.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SkipSummaryTest {

    @Test
    void nothingSkippedPrintsNothing() {
        assertTrue(new SkipSummary().line("idgen-jdbc").isEmpty());
    }

    @Test
    void skipsAreGroupedByWhatTheyNeededWithTheInstallCommand() {
        SkipSummary s = new SkipSummary();
        for (int i = 0; i < 3; i++) {
            s.count("MariaDB: 127.0.0.1:3306 does not answer; skipped outside CI "
                    + Missing.tag("MariaDB", "sudo apt-get install -y mariadb-server"));
        }
        s.count("Redis: no redis-server; skipped outside CI " + Missing.tag("Redis", "sudo apt-get install -y redis-server"));
        s.count("assumption failed for another reason");
        assertEquals("idgen tests in idgen-jdbc: 5 tests or classes skipped of 0 run: "
                + "3 needed MariaDB (install: sudo apt-get install -y mariadb-server), "
                + "1 needed Redis (install: sudo apt-get install -y redis-server), "
                + "1 needed something else (see the test reports). Or run `bash .ci/run`, which starts every server.",
                s.line("idgen-jdbc").orElseThrow());
    }
}
