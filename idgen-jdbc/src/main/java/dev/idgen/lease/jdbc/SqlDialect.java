package dev.idgen.lease.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
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
     * A parameter of type BIGINT inside an expression, where some databases cannot infer the type
     * of a bare {@code ?}.
     */
    String longParameter() {
        return this == MYSQL ? "?" : "CAST(? AS BIGINT)";
    }

    /**
     * The statements that add the columns a table made by an earlier version lacks (the nonce and
     * the writer's fence offset); each fails harmlessly when its column is there already.
     *
     * @param table the table name (checked)
     * @return the {@code ALTER TABLE} statements
     */
    String[] addNewColumns(String table) {
        String t = LeaseTable.checkName(table);
        return new String[] {
            "ALTER TABLE " + t + " ADD COLUMN nonce BIGINT DEFAULT 0 NOT NULL",
            "ALTER TABLE " + t + " ADD COLUMN fence_offset_ms BIGINT DEFAULT 0 NOT NULL"
        };
    }

    /**
     * The shipped {@code CREATE TABLE IF NOT EXISTS} statement for the lease table.
     *
     * @param table the table name (checked: letters, digits, {@code _}, optionally schema-qualified)
     * @return the DDL
     */
    public String createTable(String table) {
        try (InputStream in = SqlDialect.class.getResourceAsStream("ddl/" + ddlResource)) {
            if (in == null) {
                throw new IllegalStateException("DDL resource ddl/" + ddlResource + " is missing from the jar");
            }
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            StringBuilder sql = new StringBuilder();
            for (String line : text.split("\n")) {
                if (!line.startsWith("--")) {
                    sql.append(line).append('\n');
                }
            }
            return sql.toString().replace("${table}", LeaseTable.checkName(table)).strip();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
