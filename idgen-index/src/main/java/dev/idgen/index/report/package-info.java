/**
 * What a person reads of an index run: the model's scoreboard as a text table, the chart of leaf
 * fill and pages as rows grow, a progress line, and the small JSON and table writers the engine
 * report also uses.
 */
package dev.idgen.index.report;
