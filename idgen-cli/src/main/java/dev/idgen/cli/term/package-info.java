/** Telling whether standard output and standard error are terminals. */
package dev.idgen.cli.term;
