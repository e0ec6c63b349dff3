package dev.idgen.hibernate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hibernate.MappingException;
import org.hibernate.SessionFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A session factory built while Spring's AOT processing runs, without {@link EntityIds#SETTING}
 * and without a machine id in this JVM (as Spring Data JPA's AOT repository generation builds one):
 * it builds, it checks the mapping, and it makes no ids. Outside AOT processing the same factory
 * fails for want of a machine id ({@code EnvironmentEntityIdsTest}).
 */
class AotProcessingEntityIdsTest {

    @AfterEach
    void endAotProcessing() {
        System.clearProperty(AotProcessingEntityIds.SPRING_AOT_PROCESSING);
    }

    @Test
    void theFactoryBuildsAndEveryGeneratorRefusesNamingWhy() {
        System.setProperty(AotProcessingEntityIds.SPRING_AOT_PROCESSING, "true");
        try (SessionFactory factory = Factories.build(TestDatabase.H2, null, Item.class, PurchaseOrder.class)) {
            Exception e = assertThrows(Exception.class, () -> factory.inTransaction(s -> s.persist(new Item(1, 1))));
            Throwable cause = e;
            while (cause != null && !(cause instanceof IllegalStateException
                    && cause.getMessage().contains("spring.aot.processing=true"))) {
                cause = cause.getCause();
            }
            assertTrue(cause != null, "the persist fails naming AOT processing: " + e);
            assertTrue(cause.getMessage().startsWith("@Snowflake makes no ids"), cause.getMessage());

            Exception segment = assertThrows(Exception.class,
                    () -> factory.inTransaction(s -> s.persist(new PurchaseOrder(1))));
            assertTrue(String.valueOf(rootMessage(segment)).startsWith("@SegmentId(\"orders\") makes no ids"),
                    String.valueOf(rootMessage(segment)));
        }
    }

    @Test
    void aMappingMistakeStillFailsTheBuild() {
        System.setProperty(AotProcessingEntityIds.SPRING_AOT_PROCESSING, "true");
        Exception e = assertThrows(Exception.class, () -> Factories.build(TestDatabase.H2, null, BadType.class).close());
        Throwable cause = e;
        while (cause != null && !(cause instanceof MappingException)) {
            cause = cause.getCause();
        }
        assertTrue(cause != null, "the String field fails the build: " + e);
        assertEquals("@Snowflake on dev.idgen.hibernate.BadType.id of type java.lang.String; allowed: Long or long",
                cause.getMessage());
    }

    @Test
    void onlyTheValueTrueCounts() {
        System.setProperty(AotProcessingEntityIds.SPRING_AOT_PROCESSING, "false");
        Exception e = assertThrows(Exception.class, () -> Factories.build(TestDatabase.H2, null, Item.class).close());
        assertTrue(String.valueOf(rootMessage(e)).contains("needs a machine id"), String.valueOf(rootMessage(e)));
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getMessage();
    }
}
