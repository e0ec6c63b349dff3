package dev.idgen.spring.boot;

import java.sql.SQLException;

/**
 * Reads the database's own failure in a start-up failure's causes, so the report's Action names the
 * setting that is wrong: a refused connection or an unknown database is {@code spring.datasource.url},
 * a refused login {@code spring.datasource.username} / {@code password}, not an {@code idgen.*}
 * property. Classified by SQLSTATE (class 08: connection; 28: authorization; 3D000: no such
 * database) and, for MariaDB and MySQL, which report an unknown database as 42000, by their error
 * code 1049.
 */
final class DataSourceFailures {

    /** MariaDB's and MySQL's error code for an unknown database (ER_BAD_DB_ERROR). */
    private static final int UNKNOWN_DATABASE = 1049;

    private DataSourceFailures() {
    }

    /** {@return what to change when a cause is the database refusing the connection, else null} */
    static String action(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLException e) {
                String action = action(e);
                if (action != null) {
                    return action;
                }
            }
        }
        return null;
    }

    private static String action(SQLException e) {
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        if (state.startsWith("08")) {
            return "Check spring.datasource.url: no connection could be made to the database it names (SQLSTATE "
                    + state + "). Is the host and port right, and is the database server running and reachable?";
        }
        if (state.equals("3D000") || e.getErrorCode() == UNKNOWN_DATABASE) {
            return "Check the database name in spring.datasource.url: the server answered, but has no such"
                    + " database (SQLSTATE " + state + "). Create it, or name one that exists.";
        }
        if (state.startsWith("28")) {
            return "Check spring.datasource.username and spring.datasource.password: the database server refused"
                    + " the login (SQLSTATE " + state + ").";
        }
        return null;
    }
}
