/**
 * jcstress tests of {@link dev.idgen.snowflake.SnowflakeGenerator}: two actors share one generator
 * with an injected clock, an arbiter reads what they got.
 *
 * <p>How order is made visible: the state takes one ID before the actors start, each actor takes
 * two IDs in a row, and the arbiter takes one after both. Each ID is reported as its ordinal (how
 * many IDs the generator issued before it, counted from the state's ID). The only acceptable
 * outcomes are the six ways to interleave two actors' two calls: ordinals 1 to 4 each exactly once,
 * each actor's pair increasing, the arbiter's ID 5. A duplicate, a gap, an actor whose second ID is
 * smaller, or an ID the arbiter does not follow is FORBIDDEN.
 */
package dev.idgen.jcstress.snowflake;
