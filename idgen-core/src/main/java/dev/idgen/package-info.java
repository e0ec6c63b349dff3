/**
 * The contract every idgen generator keeps ({@link dev.idgen.IdGenerator},
 * {@link dev.idgen.LongIdGenerator}) and the front door that makes them
 * ({@link dev.idgen.IdGenerators}).
 */
package dev.idgen;
