/**
 * The engine probes behind {@code idgen index --real}: the index workload loaded into a real engine
 * (embedded SQLite, or PostgreSQL, MariaDB or MySQL over JDBC), each engine's own instruments read
 * before and after, and the model ({@link dev.idgen.index.model}) fed the same keys in the order the
 * engine took them, side by side. The JDBC drivers are optional dependencies: bring the one for the
 * engine you measure.
 */
package dev.idgen.index.engine;
