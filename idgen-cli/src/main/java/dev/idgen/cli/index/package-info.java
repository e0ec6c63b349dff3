/**
 * {@code idgen index}: runs of the testkit's B+ tree index model per key kind, the scoreboard as
 * text, a progress bar, and the chart of leaf fill and pages as rows grow.
 */
package dev.idgen.cli.index;
