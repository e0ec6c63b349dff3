package dev.idgen.hibernate;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.util.UUID;

/** A Snowflake primary key and a UUIDv7 column, both made on insert. */
@Entity
@Table(name = "idgen_hib_item")
public class Item {
    @Id
    @Snowflake
    Long id;

    @UuidV7
    @Column(name = "public_id", nullable = false, unique = true, updatable = false)
    UUID publicId;

    int writer;

    int seq;

    protected Item() {
    }

    Item(int writer, int seq) {
        this.writer = writer;
        this.seq = seq;
    }
}
