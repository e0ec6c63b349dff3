/**
 * {@code idgen index --real} from end to end: each engine, writer count and key kind run in turn on
 * the engine probes ({@link dev.idgen.index.engine}), the workload's prediction
 * ({@link dev.idgen.index.predict}) beside each, and the text and HTML report
 * ({@link dev.idgen.index.report}). The package sits above the three; none of them depends on it.
 */
package dev.idgen.index.run;
