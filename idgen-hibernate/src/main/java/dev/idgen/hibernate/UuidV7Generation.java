package dev.idgen.hibernate;

import dev.idgen.IdGenerator;
import java.lang.reflect.Member;
import java.util.EnumSet;
import java.util.Set;
import java.util.UUID;
import org.hibernate.engine.spi.SharedSessionContractImplementor;
import org.hibernate.generator.AnnotationBasedGenerator;
import org.hibernate.generator.BeforeExecutionGenerator;
import org.hibernate.generator.EventType;
import org.hibernate.generator.EventTypeSets;
import org.hibernate.generator.GeneratorCreationContext;

/**
 * Hibernate's side of {@link UuidV7 @UuidV7}: one instance per annotated attribute, made by
 * Hibernate while it builds the session factory. Not for direct use.
 */
public final class UuidV7Generation implements BeforeExecutionGenerator, AnnotationBasedGenerator<UuidV7> {

    private static final long serialVersionUID = 1L;

    private transient IdGenerator<UUID> ids;

    /** For Hibernate, which then calls {@link #initialize(UuidV7, Member, GeneratorCreationContext)}. */
    public UuidV7Generation() {
    }

    @Override
    public void initialize(UuidV7 annotation, Member member, GeneratorCreationContext context) {
        Generations.requireType(member, "@UuidV7", Set.of(UUID.class), "java.util.UUID");
        this.ids = Generations.entityIds(context).uuidV7();
    }

    /**
     * A new UUIDv7.
     *
     * @throws IllegalStateException when the clock is refused by the generator's policy
     */
    @Override
    public Object generate(SharedSessionContractImplementor session, Object owner, Object currentValue,
            EventType eventType) {
        return ids.next();
    }

    @Override
    public EnumSet<EventType> getEventTypes() {
        return EventTypeSets.INSERT_ONLY;
    }
}
