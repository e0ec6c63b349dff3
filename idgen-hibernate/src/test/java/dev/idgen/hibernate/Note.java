package dev.idgen.hibernate;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.util.UUID;

/** The other way round: a UUIDv7 primary key and a Snowflake plain column, made when the row is written. */
@Entity
@Table(name = "idgen_hib_note")
public class Note {
    @Id
    @UuidV7
    UUID id;

    @Snowflake
    @Column(name = "ticket", nullable = false)
    long ticket;

    String text;

    protected Note() {
    }

    Note(String text) {
        this.text = text;
    }
}
