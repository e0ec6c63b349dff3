/**
 * JMH benchmarks of idgen next to the libraries users would pick instead, one class per topic.
 *
 * <p>One method per implementation: {@code ours} (or a name starting with {@code ours}) for idgen,
 * the peer's name otherwise. The thread count is not in the code: the runner gives it
 * ({@code -t 1}, {@code -t 2}; {@code idgen-jmh/run-report.sh} runs both), and the report's case
 * is that count ({@code 1t}, {@code 2t}). Single-threaded operations that compare one operation
 * each are named {@code <implementation>_<operation>} and the operation is the case. The report
 * renderer ({@link dev.idgen.jmh.report.ReportRenderer}) groups rows by class and case and divides
 * each peer by {@code ours}.
 */
package dev.idgen.jmh;
