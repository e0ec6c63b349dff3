package dev.idgen.spring.boot.jpa;

import dev.idgen.hibernate.UuidV7;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.util.UUID;

/** An entity whose key the starter's UUIDv7 generator makes, for the tests on real engines. */
@Entity
@Table(name = "idgen_engine_receipt")
public class Receipt {
    @Id
    @UuidV7
    UUID id;

    String text;

    protected Receipt() {
    }

    /** @param text any text */
    public Receipt(String text) {
        this.text = text;
    }

    /** {@return the key, set when the entity is persisted} */
    public UUID id() {
        return id;
    }
}
