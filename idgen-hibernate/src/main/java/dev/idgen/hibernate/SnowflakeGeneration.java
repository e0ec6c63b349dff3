package dev.idgen.hibernate;

import dev.idgen.LongIdGenerator;
import java.lang.reflect.Member;
import java.util.EnumSet;
import java.util.Set;
import org.hibernate.engine.spi.SharedSessionContractImplementor;
import org.hibernate.generator.AnnotationBasedGenerator;
import org.hibernate.generator.BeforeExecutionGenerator;
import org.hibernate.generator.EventType;
import org.hibernate.generator.EventTypeSets;
import org.hibernate.generator.GeneratorCreationContext;

/**
 * Hibernate's side of {@link Snowflake @Snowflake}: one instance per annotated attribute, made by
 * Hibernate while it builds the session factory. Not for direct use.
 */
public final class SnowflakeGeneration implements BeforeExecutionGenerator, AnnotationBasedGenerator<Snowflake> {

    private static final long serialVersionUID = 1L;

    private transient LongIdGenerator ids;

    /** For Hibernate, which then calls {@link #initialize(Snowflake, Member, GeneratorCreationContext)}. */
    public SnowflakeGeneration() {
    }

    @Override
    public void initialize(Snowflake annotation, Member member, GeneratorCreationContext context) {
        Generations.requireType(member, "@Snowflake", Set.of(Long.class, long.class), "Long or long");
        this.ids = Generations.entityIds(context).snowflake();
    }

    /**
     * A new Snowflake id.
     *
     * @throws dev.idgen.machine.MachineIdLostException when the generator's lease is lost
     * @throws IllegalStateException when the clock is refused by the generator's policy
     */
    @Override
    public Object generate(SharedSessionContractImplementor session, Object owner, Object currentValue,
            EventType eventType) {
        return ids.nextLong();
    }

    @Override
    public EnumSet<EventType> getEventTypes() {
        return EventTypeSets.INSERT_ONLY;
    }
}
