package dev.idgen.hibernate;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** A segment-numbered primary key. */
@Entity
@Table(name = "idgen_hib_order")
public class PurchaseOrder {
    @Id
    @SegmentId("orders")
    Long id;

    int writer;

    protected PurchaseOrder() {
    }

    PurchaseOrder(int writer) {
        this.writer = writer;
    }
}
