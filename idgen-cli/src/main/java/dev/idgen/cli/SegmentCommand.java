package dev.idgen.cli;

import dev.idgen.segment.SegmentGenerator;
import dev.idgen.segment.SegmentUnavailableException;
import dev.idgen.segment.jdbc.JdbcSegmentSource;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.concurrent.Callable;
import java.util.logging.Logger;
import javax.sql.DataSource;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code idgen segment}: takes ranges of {@code --step} numbers of counter {@code --name} from a
 * JDBC segment table and prints {@code -n} numbers, one a line. Ranges are fetched on this thread
 * only when needed (no prefetch), so a run takes ceil(n / step) ranges and drops the rest of the
 * last one.
 */
@Command(name = "segment", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Take numbers from a segment store (a JDBC table, as JdbcSegmentSource keeps it) and print"
                + " them, one a line.",
                "Every run takes fresh ranges: numbers never repeat across runs or with other users of the"
                + " counter; the unused rest of the last range is dropped."})
final class SegmentCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--jdbc-url", required = true, paramLabel = "URL",
            description = "The database, e.g. jdbc:postgresql://127.0.0.1:5432/app or jdbc:mariadb://host/app.")
    private String jdbcUrl;

    @Option(names = "--user", paramLabel = "USER", defaultValue = "", description = "Database user (default: none).")
    private String user;

    @Option(names = "--password", paramLabel = "PASSWORD", defaultValue = "",
            description = "Database password (default: none).")
    private String password;

    @Option(names = "--table", paramLabel = "TABLE", defaultValue = "idgen_segment",
            description = "The segment table (default: ${DEFAULT-VALUE}).")
    private String table;

    @Option(names = "--create-table", description = "Create the table if it does not exist.")
    private boolean createTable;

    @Option(names = "--name", required = true, paramLabel = "NAME", description = "The counter, e.g. orders.")
    private String name;

    @Option(names = "--step", paramLabel = "STEP", defaultValue = "1000",
            description = "Numbers per range taken from the store (default: ${DEFAULT-VALUE}).")
    private long step;

    @Option(names = "-n", paramLabel = "N", defaultValue = "1", description = "How many numbers (default: ${DEFAULT-VALUE}).")
    private long count;

    @Override
    public Integer call() {
        Counts.requirePositive(spec, count);
        try {
            SegmentGenerator.checkName(name);
            SegmentGenerator.checkStep(step);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        JdbcSegmentSource source;
        try {
            source = JdbcSegmentSource.builder(new Direct(jdbcUrl, user, password)).table(table)
                    .createTable(createTable).build();
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        } catch (RuntimeException e) {
            throw new BadInputException("cannot use the segment store at " + jdbcUrl + ": " + e.getMessage());
        }
        // no prefetch and fetches on this thread: a short run takes no range it does not count in
        try (SegmentGenerator numbers = SegmentGenerator.builder().source(source).name(name).step(step)
                .prefetch(0, 0).executor(Runnable::run).build()) {
            PrintWriter out = spec.commandLine().getOut();
            for (long i = 0; i < count; i++) {
                out.println(numbers.nextLong());
            }
            out.flush();
        } catch (SegmentUnavailableException e) {
            throw new BadInputException(e.getMessage());
        }
        return IdgenCommand.EXIT_OK;
    }

    /** Connections through DriverManager: one per range, enough for a command-line run. */
    private record Direct(String url, String user, String password) implements DataSource {
        @Override
        public Connection getConnection() throws SQLException {
            return DriverManager.getConnection(url, user, password);
        }

        @Override
        public Connection getConnection(String u, String p) throws SQLException {
            return DriverManager.getConnection(url, u, p);
        }

        @Override
        public PrintWriter getLogWriter() {
            return null;
        }

        @Override
        public void setLogWriter(PrintWriter out) {
        }

        @Override
        public void setLoginTimeout(int seconds) {
        }

        @Override
        public int getLoginTimeout() {
            return 0;
        }

        @Override
        public Logger getParentLogger() {
            return Logger.getGlobal();
        }

        @Override
        public <T> T unwrap(Class<T> iface) throws SQLException {
            throw new SQLException("not a wrapper");
        }

        @Override
        public boolean isWrapperFor(Class<?> iface) {
            return false;
        }
    }
}
