/**
 * What {@code idgen decode} prints about an ID, on top of core's {@link dev.idgen.decode.IdDecoder}:
 * every reading of a string, its named fields, relative times, and for an implausible reading (a
 * Snowflake read with the wrong layout) the readings that give a plausible time. It knows no format:
 * one loop over the fields core gives.
 */
package dev.idgen.cli.decode;
