package dev.idgen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.testsupport.TestPostgres;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@code idgen segment} against the real PostgreSQL on loopback, in a table of this class's own. */
class SegmentCommandTest {

    /** The machine's PostgreSQL or a private one; without either, a failure under CI and a skip elsewhere. */
    private final String url = TestPostgres.server().url();
    private final String table = "idgen_segment_cli" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 4);

    @AfterEach
    void drop() throws SQLException {
        try (Connection c = DriverManager.getConnection(url, "postgres", ""); Statement st = c.createStatement()) {
            st.execute("DROP TABLE IF EXISTS " + table);
        }
    }

    private Cli.Run segment(String... more) {
        String[] base = {"segment", "--jdbc-url", url, "--user", "postgres", "--table", table, "--create-table"};
        String[] args = Arrays.copyOf(base, base.length + more.length);
        System.arraycopy(more, 0, args, base.length, more.length);
        return Cli.run(args);
    }

    @Test
    void printsNumbersFromOneAndASecondRunStartsAfterTheRangesTheFirstTook() {
        Cli.Run first = segment("--name", "x", "--step", "4", "-n", "10");
        assertEquals(0, first.exit(), first.err());
        long[] a = Arrays.stream(first.lines()).mapToLong(Long::parseLong).toArray();
        long[] expected = new long[10];
        Arrays.setAll(expected, i -> i + 1);
        assertEquals(Arrays.toString(expected), Arrays.toString(a));

        // 10 numbers in ranges of 4 took 1..12: the next run starts at 13, never repeating 11 or 12
        Cli.Run second = segment("--name", "x", "--step", "4", "-n", "3");
        assertEquals(0, second.exit(), second.err());
        assertEquals("13\n14\n15\n", second.out());
    }

    @Test
    void countersOfOtherNamesAreApart() {
        assertEquals("1\n2\n", segment("--name", "x", "--step", "10", "-n", "2").out());
        assertEquals("1\n", segment("--name", "y", "--step", "10", "-n", "1").out());
    }

    @Test
    void aStepOutOfRangeIsAUsageError() {
        Cli.Run r = segment("--name", "x", "--step", "0", "-n", "1");
        assertEquals(IdgenCommand.EXIT_USAGE, r.exit());
        assertTrue(r.err().contains("segment step 0 is out of range: 1 to 1,099,511,627,776 (2^40)"), r.err());
    }

    @Test
    void anUnreachableStoreIsBadInputNamingIt() {
        Cli.Run r = Cli.run("segment", "--jdbc-url", "jdbc:postgresql://127.0.0.1:1/none?connectTimeout=1",
                "--name", "x", "-n", "1");
        assertEquals(IdgenCommand.EXIT_BAD_INPUT, r.exit());
        assertTrue(r.err().contains("127.0.0.1:1"), r.err());
        assertEquals("", r.out());
    }
}
