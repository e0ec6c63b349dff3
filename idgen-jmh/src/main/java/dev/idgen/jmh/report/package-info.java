/**
 * Renders JMH's JSON results as the Markdown report in {@code idgen-jmh/results/}: idgen's
 * targets, and per benchmark class ours next to each peer with ratios and error bars.
 */
package dev.idgen.jmh.report;
