/**
 * The {@code idgen} command line: {@link dev.idgen.cli.IdgenCommand} and one class per
 * subcommand ({@code snowflake}, {@code uuid7}, {@code uuid4}, {@code decode}, {@code index},
 * {@code demo}).
 */
package dev.idgen.cli;
