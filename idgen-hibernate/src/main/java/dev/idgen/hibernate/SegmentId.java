package dev.idgen.hibernate;

import static java.lang.annotation.ElementType.FIELD;
import static java.lang.annotation.ElementType.METHOD;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;
import org.hibernate.annotations.IdGeneratorType;
import org.hibernate.annotations.ValueGenerationType;

/**
 * A dense, increasing number from a segment store (see {@link dev.idgen.segment.SegmentGenerator}),
 * made by idgen when the entity is inserted, on an {@code @Id} or on a plain column of type
 * {@code Long} or {@code long}.
 *
 * <pre>{@code
 * @Entity
 * class PurchaseOrder {
 *     @Id @SegmentId("orders") Long id;   // 1, 2, 3, ... (gaps after a restart)
 * }
 * }</pre>
 *
 * <p>The number comes from {@link EntityIds#segment(String) EntityIds.segment(value())} of the
 * {@link EntityIds} in force (see {@link EntityIds#SETTING}); give Hibernate one made with
 * {@link EntityIds#withSegments(dev.idgen.segment.spi.SegmentSource, long)}. Every attribute naming the
 * same counter in one session factory shares one generator; session factories (and processes) on
 * one store never share a number, because the store grants each range once. When the store is
 * unreachable and the generator's ranges are spent, the persist fails with
 * {@link dev.idgen.segment.SegmentUnavailableException} and nothing is written for that entity.
 *
 * <p>A field of another type, an invalid name, or an {@code EntityIds} without segments fails
 * when the session factory is built.
 */
@Documented
@Retention(RUNTIME)
@Target({FIELD, METHOD})
@IdGeneratorType(SegmentIdGeneration.class)
@ValueGenerationType(generatedBy = SegmentIdGeneration.class)
public @interface SegmentId {

    /**
     * The store's counter, e.g. {@code "orders"}: 1 to 128 characters (see
     * {@link dev.idgen.segment.SegmentGenerator#checkName(String)}).
     *
     * @return the counter's name
     */
    String value();
}
