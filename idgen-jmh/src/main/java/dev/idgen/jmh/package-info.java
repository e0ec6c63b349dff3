/**
 * JMH benchmarks of idgen next to the libraries users would pick instead, one class per topic.
 *
 * <p>Method names are {@code <implementation>_<case>}: the implementation is {@code ours} (or
 * starts with {@code ours}) for idgen and names the peer otherwise; the case is the thread count
 * ({@code 1t}, {@code 2t}, set with {@code @Threads}) or the operation. The report renderer
 * ({@link dev.idgen.jmh.report.ReportRenderer}) groups rows by class and case and divides each
 * peer by {@code ours}.
 */
package dev.idgen.jmh;
