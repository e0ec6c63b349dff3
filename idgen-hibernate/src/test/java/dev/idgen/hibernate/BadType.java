package dev.idgen.hibernate;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** @Snowflake on a String: must fail when the session factory is built. */
@Entity
@Table(name = "idgen_hib_bad")
public class BadType {
    @Id
    @Snowflake
    String id;
}
