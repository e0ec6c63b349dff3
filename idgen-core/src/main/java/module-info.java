/**
 * idgen core: ID generators that need no central counter.
 *
 * <ul>
 *   <li>{@link dev.idgen} - the {@link dev.idgen.IdGenerator} contract and the
 *       {@link dev.idgen.IdGenerators} front door;</li>
 *   <li>{@link dev.idgen.clock} - what every time-ordered generator does when the clock steps back;</li>
 *   <li>{@link dev.idgen.snowflake} - 64-bit Snowflake IDs: layouts, the lock-free generator and
 *       the decoder;</li>
 *   <li>{@link dev.idgen.machine} - the seam through which a generator gets, and may lose, its
 *       machine id; {@link dev.idgen.machine.spi} - the view of a generator a lease fences;</li>
 *   <li>{@link dev.idgen.lease} - the life of a machine-id lease, the same on every store;
 *       {@link dev.idgen.lease.spi} - what a store of lease records implements;</li>
 *   <li>{@link dev.idgen.uuid} - RFC 9562 UUIDv7 and UUIDv4 generators, strict codecs, the
 *       unsigned order and the UUID decoder;</li>
 *   <li>{@link dev.idgen.random} - the randomness UUID generators draw from: a striped CSPRNG
 *       keystream by default;</li>
 *   <li>{@link dev.idgen.text} - IDs as text: Crockford base32 codecs, and how messages quote bad input;</li>
 *   <li>{@link dev.idgen.ulid} - ULIDs: the monotonic generator and the strict text codec;</li>
 *   <li>{@link dev.idgen.decode} - one decoder for people debugging: any ID written as text;</li>
 *   <li>{@link dev.idgen.segment} - dense increasing numbers counted in ranges a store grants, and
 *       business numbers such as {@code INV-20261203-000042}.</li>
 * </ul>
 *
 * <p>{@code dev.idgen.sequence} holds the packed (tick, counter) state shared by the time-ordered
 * generators; it is not exported.
 */
module dev.idgen.core {
    requires org.slf4j;

    exports dev.idgen;
    exports dev.idgen.clock;
    exports dev.idgen.machine;
    exports dev.idgen.machine.spi;
    exports dev.idgen.lease;
    exports dev.idgen.lease.spi;
    exports dev.idgen.snowflake;
    exports dev.idgen.uuid;
    exports dev.idgen.random;
    exports dev.idgen.decode;
    exports dev.idgen.text;
    exports dev.idgen.ulid;
    exports dev.idgen.segment;
    exports dev.idgen.segment.spi;
}
