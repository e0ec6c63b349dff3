/**
 * A B+ tree primary-key index in memory ({@link dev.idgen.index.model.IndexModel}) that counts
 * what a database would do for a stream of keys: splits, page writes, pages, leaf fill, bytes,
 * LRU buffer-pool hits and the bytes secondary indexes spend on copies of the key.
 */
package dev.idgen.index.model;
