package dev.idgen.lease.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The few places where the lease table's SQL differs between databases: the table's DDL and the
 * expression for the database clock in Unix milliseconds. Everything else is standard SQL.
 */
public enum SqlDialect {

    /** PostgreSQL 9.5 or newer. */
    POSTGRESQL("postgresql.sql", "CAST(EXTRACT(EPOCH FROM CURRENT_TIMESTAMP) * 1000 AS BIGINT)"),

    /**
     * MySQL 5.7+ and MariaDB 10.3+ (InnoDB tables). The clock is read as {@code UTC_TIMESTAMP(6)}:
     * {@code UNIX_TIMESTAMP(CURRENT_TIMESTAMP(3))} goes through the session time zone and is
     * ambiguous in the hour a daylight-saving zone repeats, which could shorten a lease by an hour.
     */
    MYSQL("mysql.sql", "(TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', UTC_TIMESTAMP(6)) DIV 1000)"),

    /** H2 2.x. */
    H2("h2.sql", "CAST(EXTRACT(EPOCH FROM CURRENT_TIMESTAMP) * 1000 AS BIGINT)");

    private final String ddlResource;
    private final String nowMillis;

    SqlDialect(String ddlResource, String nowMillis) {
        this.ddlResource = ddlResource;
        this.nowMillis = nowMillis;
    }

    /**
     * The dialect of a database, from its JDBC product name.
     *
     * @param productName {@code DatabaseMetaData.getDatabaseProductName()}
     * @return the dialect
     * @throws IllegalArgumentException for a database without a dialect here
     */
    public static SqlDialect of(String productName) {
        String p = productName.toLowerCase(Locale.ROOT);
        if (p.contains("postgres")) {
            return POSTGRESQL;
        }
        if (p.contains("mysql") || p.contains("mariadb")) {
            return MYSQL;
        }
        if (p.equals("h2")) {
            return H2;
        }
        throw new IllegalArgumentException("No lease-table dialect for database '" + productName
                + "'; supported: PostgreSQL, MySQL, MariaDB, H2 (set one with dialect(...) if yours speaks one of them)");
    }

    /**
     * The SQL expression for the database's current time in Unix milliseconds.
     *
     * @return an SQL expression of type BIGINT
     */
    public String nowMillis() {
        return nowMillis;
    }

    /**
     * The statements that add the columns a table made by an earlier version lacks (the nonce and
     * the writer's fence offset).
     *
     * @param table the table name (checked)
     * @return the {@code ALTER TABLE} statements
     */
    List<String> addNewColumns(String table) {
        String t = LeaseTable.checkName(table);
        return List.of("ALTER TABLE " + t + " ADD COLUMN nonce BIGINT DEFAULT 0 NOT NULL",
                "ALTER TABLE " + t + " ADD COLUMN fence_offset_ms BIGINT DEFAULT 0 NOT NULL");
    }

    /**
     * The shipped statements that make a new lease table: {@code CREATE TABLE} (which fails when the
     * table exists) and the {@code INSERT} of its namespace row, which proves the table new. Run them
     * in order, in one transaction where the database allows it, and the {@code INSERT} only if the
     * {@code CREATE} succeeded: the file {@code dev/idgen/lease/jdbc/ddl/<dialect>.sql} in this jar
     * says what each column holds.
     *
     * @param table the table name (checked: letters, digits, {@code _}, optionally schema-qualified)
     * @return the statements, without the script's {@code BEGIN}/{@code COMMIT}
     */
    public List<String> createTable(String table) {
        String name = LeaseTable.checkName(table);
        try (InputStream in = SqlDialect.class.getResourceAsStream("ddl/" + ddlResource)) {
            if (in == null) {
                throw new IllegalStateException("DDL resource ddl/" + ddlResource + " is missing from the jar");
            }
            StringBuilder script = new StringBuilder();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.startsWith("--")) {
                    script.append(line).append('\n');
                }
            }
            List<String> statements = new ArrayList<>();
            for (String s : script.toString().split(";\n")) {
                String sql = s.strip();
                if (!sql.isEmpty() && !sql.equals("BEGIN") && !sql.equals("COMMIT")) {
                    statements.add(sql.replace("${table}", name));
                }
            }
            return List.copyOf(statements);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
