package dev.idgen.hibernate;

import dev.idgen.LongIdGenerator;
import dev.idgen.segment.SegmentGenerator;
import java.lang.reflect.Member;
import java.util.EnumSet;
import java.util.Set;
import org.hibernate.MappingException;
import org.hibernate.engine.spi.SharedSessionContractImplementor;
import org.hibernate.generator.AnnotationBasedGenerator;
import org.hibernate.generator.BeforeExecutionGenerator;
import org.hibernate.generator.EventType;
import org.hibernate.generator.EventTypeSets;
import org.hibernate.generator.GeneratorCreationContext;

/**
 * Hibernate's side of {@link SegmentId @SegmentId}: one instance per annotated attribute, made by
 * Hibernate while it builds the session factory. Not for direct use.
 */
public final class SegmentIdGeneration implements BeforeExecutionGenerator, AnnotationBasedGenerator<SegmentId> {

    private static final long serialVersionUID = 1L;

    private transient LongIdGenerator ids;

    /** For Hibernate, which then calls {@link #initialize(SegmentId, Member, GeneratorCreationContext)}. */
    public SegmentIdGeneration() {
    }

    @Override
    public void initialize(SegmentId annotation, Member member, GeneratorCreationContext context) {
        Generations.requireType(member, "@SegmentId", Set.of(Long.class, long.class), "Long or long");
        String name = annotation.value();
        try {
            SegmentGenerator.checkName(name);
        } catch (IllegalArgumentException e) {
            throw new MappingException("@SegmentId on " + member.getDeclaringClass().getName() + "."
                    + member.getName() + ": " + e.getMessage(), e);
        }
        this.ids = Generations.entityIds(context).segment(name);
    }

    /**
     * The next number of the attribute's counter.
     *
     * @throws dev.idgen.segment.SegmentUnavailableException when every range is spent and the
     *         store does not grant another within the generator's wait
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
