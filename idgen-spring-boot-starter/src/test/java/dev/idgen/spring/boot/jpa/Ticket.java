package dev.idgen.spring.boot.jpa;

import dev.idgen.hibernate.Snowflake;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** An entity whose key the starter's Snowflake generator makes, for the shutdown-order test. */
@Entity
@Table(name = "idgen_lifecycle_ticket")
public class Ticket {
    @Id
    @Snowflake
    Long id;

    String text;

    protected Ticket() {
    }

    /** @param text any text */
    public Ticket(String text) {
        this.text = text;
    }

    /** {@return the key, set when the entity is persisted} */
    public Long id() {
        return id;
    }
}
