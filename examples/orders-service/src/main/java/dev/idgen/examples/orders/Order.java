package dev.idgen.examples.orders;

import dev.idgen.hibernate.Snowflake;
import dev.idgen.hibernate.UuidV7;
import jakarta.persistence.CascadeType;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.OneToMany;
import jakarta.persistence.OrderBy;
import jakarta.persistence.Table;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

@Entity(name = "PurchaseOrder")
@Table(name = "idgen_orders_order")
public class Order {

    @Id
    @Snowflake
    private Long id;

    @UuidV7
    @Column(name = "public_id", nullable = false, unique = true, updatable = false)
    private UUID publicId;

    @Column(nullable = false)
    private String customer;

    @OneToMany(mappedBy = "order", cascade = CascadeType.ALL, orphanRemoval = true)
    @OrderBy("id")
    private List<OrderLine> lines = new ArrayList<>();

    protected Order() {
    }

    public Order(String customer) {
        this.customer = customer;
    }

    public void addLine(String sku, int quantity) {
        lines.add(new OrderLine(this, sku, quantity));
    }

    public Long getId() {
        return id;
    }

    public UUID getPublicId() {
        return publicId;
    }

    public String getCustomer() {
        return customer;
    }

    public List<OrderLine> getLines() {
        return lines;
    }
}
