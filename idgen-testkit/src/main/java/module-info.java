/**
 * idgen testkit: what tests of code that makes IDs need. The model of what a key does to a B+ tree
 * index is not here: it is idgen-index's ({@code dev.idgen.index.model}), which the testkit does not
 * depend on.
 *
 * <ul>
 *   <li>{@link dev.idgen.testkit.clock} - controllable clocks that let generators wait without
 *       real sleeping;</li>
 *   <li>{@link dev.idgen.testkit.check} - uniqueness, order, k-order and field checkers with
 *       readable failures;</li>
 *   <li>{@link dev.idgen.testkit.stress} - a concurrent stress harness;</li>
 *   <li>{@link dev.idgen.testkit.gen} - seeded generators of layouts, machine ids, clock scripts
 *       and ID streams, for any property-testing tool;</li>
 *   <li>{@link dev.idgen.testkit.lease} - the scenarios every machine-id lease backend must pass,
 *       run against its real coordinator;</li>
 *   <li>{@link dev.idgen.testkit.segment} - two processes counting on one segment store while it
 *       stops and starts, every number checked distinct.</li>
 * </ul>
 */
module dev.idgen.testkit {
    requires transitive dev.idgen.core;

    exports dev.idgen.testkit.check;
    exports dev.idgen.testkit.clock;
    exports dev.idgen.testkit.gen;
    exports dev.idgen.testkit.lease;
    exports dev.idgen.testkit.segment;
    exports dev.idgen.testkit.stress;
}
