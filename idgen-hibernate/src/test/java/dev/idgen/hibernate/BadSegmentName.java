package dev.idgen.hibernate;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;

/** A blank counter name, which must fail the start-up. */
@Entity
public class BadSegmentName {
    @Id
    @SegmentId(" ")
    Long id;
}
