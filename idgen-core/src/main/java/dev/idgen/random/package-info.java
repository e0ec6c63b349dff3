/**
 * The random bits UUID generators draw from. {@link dev.idgen.random.RandomSource#secure()}, the
 * default, is a CSPRNG built for many threads: striped AES-256-CTR keystream buffers seeded from
 * {@link java.security.SecureRandom}, refilled in bulk, with no lock shared by all threads and no
 * state per thread; fresh {@code SecureRandom} bytes go into every re-key, and every stripe re-keys at
 * once on a sign that the process was restored from a snapshot. Faster guessable sources exist only under names that say so.
 */
package dev.idgen.random;
