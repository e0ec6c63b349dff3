/**
 * The soak run: 10^8 IDs through one generator from several threads, under the real clock and under
 * a clock that steps back at random, checked for duplicates and per-thread order without boxing.
 * Run from {@code target/jcstress.jar}: {@code java -Xmx3g -cp idgen-jcstress/target/jcstress.jar
 * dev.idgen.jcstress.soak.Soak}.
 */
package dev.idgen.jcstress.soak;
