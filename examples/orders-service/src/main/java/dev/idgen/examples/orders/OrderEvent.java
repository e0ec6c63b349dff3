package dev.idgen.examples.orders;

import dev.idgen.hibernate.UuidV7;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.util.UUID;

/** An audit row written in the same transaction as the order, before it. */
@Entity
@Table(name = "idgen_orders_event")
public class OrderEvent {

    @Id
    @UuidV7
    private UUID id;

    @Column(nullable = false)
    private String kind;

    @Column(nullable = false)
    private String customer;

    protected OrderEvent() {
    }

    public OrderEvent(String kind, String customer) {
        this.kind = kind;
        this.customer = customer;
    }

    public UUID getId() {
        return id;
    }
}
