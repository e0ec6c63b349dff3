package dev.idgen.spring.boot;

import dev.idgen.IdGenerator;
import dev.idgen.LongIdGenerator;
import dev.idgen.hibernate.EntityIds;
import java.util.UUID;

/**
 * The generator beans as idgen-hibernate's {@link EntityIds}, which each Boot generation's
 * Hibernate properties customizer ({@code GenerationConfigurations.Hibernate}) puts under
 * {@link EntityIds#SETTING}; loaded only when idgen-hibernate is present.
 */
final class HibernateIds {

    private HibernateIds() {
    }

    static EntityIds entityIds(LongIdGenerator snowflake, IdGenerator<UUID> uuidV7,
            SegmentGenerators segments) {
        EntityIds ids = new EntityIds() {
            @Override
            public LongIdGenerator snowflake() {
                if (snowflake == null) {
                    throw new IdgenConfigurationException("An entity uses @Snowflake, but there is no SnowflakeGenerator"
                            + " bean (idgen.snowflake.enabled=false?)");
                }
                return snowflake;
            }

            @Override
            public IdGenerator<UUID> uuidV7() {
                if (uuidV7 == null) {
                    throw new IdgenConfigurationException("An entity uses @UuidV7, but there is no UuidV7Generator bean");
                }
                return uuidV7;
            }
        };
        // @SegmentId("orders") takes idgen.segment.orders; without that counter the factory names the ones there are
        return segments == null ? ids : ids.withSegments(segments::get);
    }
}
