package dev.idgen.spring.boot.data;

import dev.idgen.IdGenerator;
import dev.idgen.LongIdGenerator;
import dev.idgen.hibernate.Snowflake;
import dev.idgen.hibernate.UuidV7;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Supplier;
import org.springframework.core.Ordered;
import org.springframework.data.mapping.PersistentPropertyAccessor;
import org.springframework.data.mapping.model.EntityInstantiators;
import org.springframework.data.mapping.model.InstantiationAwarePropertyAccessor;
import org.springframework.data.relational.core.mapping.RelationalMappingContext;
import org.springframework.data.relational.core.mapping.RelationalPersistentEntity;
import org.springframework.data.relational.core.mapping.RelationalPersistentProperty;
import org.springframework.data.relational.core.mapping.event.BeforeConvertCallback;

/**
 * Gives Spring Data JDBC aggregates their {@link Snowflake @Snowflake} and {@link UuidV7 @UuidV7}
 * values before they are written: a Spring Data {@link BeforeConvertCallback}, the place Spring
 * Data JDBC names for setting ids, which runs after Spring Data has decided from the id whether the
 * aggregate is new. Independent of Spring Boot (the starters register it when Spring Data JDBC is
 * present).
 *
 * <p>The annotations are idgen-hibernate's own; Hibernate itself need not be on the classpath for
 * them to be read here. Each annotated property of the aggregate root, on the {@code @Id} or on
 * another column, of type {@code Long}/{@code long} for {@code @Snowflake} and {@code UUID} for
 * {@code @UuidV7}, gets a new value when it has none: {@code null}, or {@code 0} for a
 * {@code long}. A value already there (set by the application, or on an update of a saved
 * aggregate) is left alone. Immutable aggregates (records, withers) get a copy with the value, as
 * Spring Data makes them. Entities inside the aggregate are not visited.
 *
 * <p>The generators are asked for on the first save that needs them, so an application with no
 * Snowflake generator fails only when an aggregate uses {@code @Snowflake}, with a message naming
 * the aggregate and property.
 */
public final class EntityIdCallback implements BeforeConvertCallback<Object>, Ordered {

    private final RelationalMappingContext context;
    private final Supplier<? extends LongIdGenerator> snowflake;
    private final Supplier<? extends IdGenerator<UUID>> uuidV7;
    private final EntityInstantiators instantiators = new EntityInstantiators();

    /**
     * @param context Spring Data JDBC's mapping context, which knows the aggregates' properties
     * @param snowflake the {@code @Snowflake} generator, or a supplier of null when there is none
     * @param uuidV7 the {@code @UuidV7} generator, or a supplier of null when there is none
     */
    public EntityIdCallback(RelationalMappingContext context, Supplier<? extends LongIdGenerator> snowflake,
            Supplier<? extends IdGenerator<UUID>> uuidV7) {
        this.context = Objects.requireNonNull(context, "context");
        this.snowflake = Objects.requireNonNull(snowflake, "snowflake");
        this.uuidV7 = Objects.requireNonNull(uuidV7, "uuidV7");
    }

    /** {@return the aggregate with a value in each of its empty {@code @Snowflake} and {@code @UuidV7} properties} */
    @Override
    public Object onBeforeConvert(Object aggregate) {
        RelationalPersistentEntity<?> entity = context.getPersistentEntity(aggregate.getClass());
        if (entity == null) {
            return aggregate;
        }
        List<RelationalPersistentProperty> generated = new ArrayList<>();
        entity.doWithProperties((RelationalPersistentProperty p) -> {
            if (p.isAnnotationPresent(Snowflake.class) || p.isAnnotationPresent(UuidV7.class)) {
                generated.add(p);
            }
        });
        return generated.isEmpty() ? aggregate : fill(cast(entity), aggregate, generated);
    }

    @SuppressWarnings("unchecked")
    private static RelationalPersistentEntity<Object> cast(RelationalPersistentEntity<?> entity) {
        return (RelationalPersistentEntity<Object>) entity;
    }

    private Object fill(RelationalPersistentEntity<Object> entity, Object aggregate,
            List<RelationalPersistentProperty> generated) {
        PersistentPropertyAccessor<Object> accessor = new InstantiationAwarePropertyAccessor<>(aggregate,
                entity::getPropertyAccessor, instantiators);
        for (RelationalPersistentProperty p : generated) {
            Object current = accessor.getProperty(p);
            boolean empty = current == null || p.getType() == long.class && (Long) current == 0L;
            if (empty) {
                accessor.setProperty(p, next(entity, p));
            }
        }
        return accessor.getBean();
    }

    private Object next(RelationalPersistentEntity<?> entity, RelationalPersistentProperty p) {
        String where = entity.getType().getName() + "." + p.getName();
        Class<?> type = p.getType();
        if (p.isAnnotationPresent(Snowflake.class)) {
            if (type != Long.class && type != long.class) {
                throw new IllegalStateException("@Snowflake on " + where + " of type " + type.getName()
                        + ": allowed types are Long and long");
            }
            LongIdGenerator ids = snowflake.get();
            if (ids == null) {
                throw new IllegalStateException("@Snowflake on " + where + ", but there is no Snowflake generator"
                        + " (with the Spring Boot starter: is idgen.snowflake.enabled=false?)");
            }
            return ids.nextLong();
        }
        if (type != UUID.class) {
            throw new IllegalStateException("@UuidV7 on " + where + " of type " + type.getName()
                    + ": the allowed type is java.util.UUID");
        }
        IdGenerator<UUID> ids = uuidV7.get();
        if (ids == null) {
            throw new IllegalStateException("@UuidV7 on " + where + ", but there is no UUIDv7 generator");
        }
        return ids.next();
    }

    /** {@return an order that runs this callback before the application's own, which may read the ids} */
    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE + 100;
    }
}
