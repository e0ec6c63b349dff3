/**
 * jcstress tests of the monotonic {@link dev.idgen.uuid.UuidV7Generator}, and of its counter
 * rollover on the {@code TickSequence} configured as that generator configures it. Order is made
 * visible as in {@link dev.idgen.jcstress.snowflake}: an ID before the actors, two per actor, one
 * after, each reported as an ordinal.
 */
package dev.idgen.jcstress.uuid;
