package dev.idgen.hibernate;

import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.hibernate.SessionFactory;
import org.hibernate.boot.model.naming.Identifier;
import org.hibernate.boot.model.naming.PhysicalNamingStrategyStandardImpl;
import org.hibernate.cfg.Configuration;
import org.hibernate.engine.jdbc.env.spi.JdbcEnvironment;

/** Session factories for the tests; every table name gets a per-run suffix so parallel runs never meet. */
final class Factories {

    private Factories() {
    }

    static final String SUFFIX = Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 24);

    static String table(String logical) {
        return logical + "_" + SUFFIX;
    }

    static SessionFactory build(TestDatabase db, EntityIds ids, Class<?>... entities) {
        return build(db, ids, Map.of(), entities);
    }

    /** As {@link #build(TestDatabase, EntityIds, Class[])}, with {@code overrides} on top of the engine's settings. */
    static SessionFactory build(TestDatabase db, EntityIds ids, Map<String, Object> overrides, Class<?>... entities) {
        Map<String, Object> settings = db.hibernateSettings();
        settings.putAll(overrides);
        if (ids != null) {
            settings.put(EntityIds.SETTING, ids);
        }
        Configuration cfg = new Configuration();
        cfg.getProperties().putAll(settings);
        cfg.setPhysicalNamingStrategy(new PhysicalNamingStrategyStandardImpl() {
            @Override
            public Identifier toPhysicalTableName(Identifier logicalName, JdbcEnvironment context) {
                return Identifier.toIdentifier(table(logicalName.getText()));
            }
        });
        for (Class<?> entity : entities) {
            cfg.addAnnotatedClass(entity);
        }
        return cfg.buildSessionFactory();
    }
}
