/** Plain-text tables, relative times and compact JSON for the commands' output. */
package dev.idgen.cli.format;
