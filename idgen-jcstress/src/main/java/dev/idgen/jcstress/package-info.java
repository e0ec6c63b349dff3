/**
 * Evidence for the lock-free core of idgen: jcstress tests of the Snowflake and monotonic UUIDv7
 * generators ({@code snowflake}, {@code uuid}), a deliberately broken generator that the same kind
 * of test must catch ({@code broken}), fixtures the tests share ({@code fixture}) and a soak run
 * ({@code soak}). Not published; built into {@code target/jcstress.jar}.
 */
package dev.idgen.jcstress;
