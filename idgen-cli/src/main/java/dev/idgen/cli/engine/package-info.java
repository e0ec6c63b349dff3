/**
 * {@code idgen index --real}: the index workload on a real engine (embedded SQLite, or PostgreSQL,
 * MariaDB or MySQL over JDBC), each engine's own instruments read before and after, and the
 * testkit's model fed the same keys in the order the engine took them, side by side.
 */
package dev.idgen.cli.engine;
