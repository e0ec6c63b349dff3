package dev.idgen.hibernate;

import dev.idgen.IdGenerator;
import dev.idgen.LongIdGenerator;
import java.util.UUID;

/** {@link EntityIds#of}: generators handed over by the application. */
record GivenEntityIds(LongIdGenerator snowflakeOrNull, IdGenerator<UUID> uuidV7OrNull) implements EntityIds {

    @Override
    public LongIdGenerator snowflake() {
        if (snowflakeOrNull == null) {
            throw new IllegalStateException("@Snowflake is used, but the EntityIds in Hibernate setting "
                    + SETTING + " was given no Snowflake generator (EntityIds.of(null, ...))");
        }
        return snowflakeOrNull;
    }

    @Override
    public IdGenerator<UUID> uuidV7() {
        if (uuidV7OrNull == null) {
            throw new IllegalStateException("@UuidV7 is used, but the EntityIds in Hibernate setting "
                    + SETTING + " was given no UUIDv7 generator (EntityIds.of(..., null))");
        }
        return uuidV7OrNull;
    }
}
