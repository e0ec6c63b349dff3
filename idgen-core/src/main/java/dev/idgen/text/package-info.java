/**
 * IDs as text: {@link dev.idgen.text.Crockford} base32 for 64-bit and 128-bit IDs (the TSID and ULID
 * text forms, sortable in ID order, strict on input), and {@link dev.idgen.text.Quote}, how every
 * error message in idgen shows the text it refused.
 */
package dev.idgen.text;
