package dev.idgen.spring.boot.segmentjpa;

import dev.idgen.hibernate.SegmentId;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** An entity numbered by the segment counter {@code tickets}, outside the package the other JPA tests scan. */
@Entity
@Table(name = "idgen_segment_coupon")
public class Coupon {
    @Id
    @SegmentId("tickets")
    Long id;

    protected Coupon() {
    }
}
