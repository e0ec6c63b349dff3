package dev.idgen.hibernate;

import java.lang.reflect.Field;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.util.Set;
import org.hibernate.MappingException;
import org.hibernate.engine.config.spi.ConfigurationService;
import org.hibernate.generator.GeneratorCreationContext;

/** What both generations do while the session factory is built: find the ids, check the type. */
final class Generations {

    private Generations() {
    }

    /**
     * The {@link EntityIds} under {@link EntityIds#SETTING}; without it, the process-wide one, or
     * while Spring's AOT processing runs, ids that refuse ({@link AotProcessingEntityIds}): the
     * metamodel built then is never used to insert, and the process has no machine id to give.
     */
    static EntityIds entityIds(GeneratorCreationContext context) {
        Object value = context.getServiceRegistry().requireService(ConfigurationService.class)
                .getSettings().get(EntityIds.SETTING);
        if (value == null) {
            return AotProcessingEntityIds.running() ? AotProcessingEntityIds.INSTANCE : EntityIds.fromEnvironment();
        }
        if (value instanceof EntityIds ids) {
            return ids;
        }
        throw new MappingException("Hibernate setting " + EntityIds.SETTING + " holds a "
                + value.getClass().getName() + "; it must hold a " + EntityIds.class.getName() + " instance");
    }

    /** Fails unless {@code member} is of one of {@code allowed}. */
    static void requireType(Member member, String annotation, Set<Class<?>> allowed, String allowedText) {
        Class<?> type = member instanceof Field f ? f.getType()
                : member instanceof Method m ? m.getReturnType() : null;
        if (type != null && !allowed.contains(type)) {
            throw new MappingException(annotation + " on " + member.getDeclaringClass().getName() + "."
                    + member.getName() + " of type " + type.getName() + "; allowed: " + allowedText);
        }
    }
}
