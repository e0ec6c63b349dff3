/**
 * idgen testkit: what tests of code that makes IDs need, and a model of what a key does to a
 * B+ tree index.
 *
 * <p>{@link dev.idgen.testkit.index} holds the B+ tree index model.
 */
module dev.idgen.testkit {
    requires transitive dev.idgen.core;

    exports dev.idgen.testkit.index;
}
