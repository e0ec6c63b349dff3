/** {@code idgen demo}: the five classic scenarios, run on the real generators with a clock the demo moves. */
package dev.idgen.cli.demo;
