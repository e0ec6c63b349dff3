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

            @Override
            public LongIdGenerator segment(String name) {
                throw missingCounter(name, "none");
            }
        };
        // @SegmentId("orders") takes idgen.segment.orders; a missing counter names the property to set
        return segments == null ? ids : ids.withSegments(name -> {
            if (!segments.all().containsKey(name)) {
                throw missingCounter(name, String.join(", ", segments.all().keySet()));
            }
            return segments.get(name);
        });
    }

    private static IdgenConfigurationException missingCounter(String name, String configured) {
        return new IdgenConfigurationException("@SegmentId(\"" + name + "\") takes its numbers from the segment"
                + " counter idgen.segment." + name + ", which is not configured (counters configured: " + configured
                + ")", "Set idgen.segment." + name + ".step=1000 (any idgen.segment." + name + ".* property makes the"
                + " counter; its store is the application's DataSource unless idgen.segment." + name + ".store names"
                + " another). The properties are listed in docs/spring-boot.md.", null);
    }
}
