package dev.idgen.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.machine.MachineIdLease;
import dev.idgen.machine.MachineIdLostException;
import dev.idgen.snowflake.SnowflakeGenerator;
import dev.idgen.snowflake.SnowflakeLayout;
import dev.idgen.spring.boot.jpa.Ticket;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import org.hibernate.SessionFactory;
import org.hibernate.SessionFactoryObserver;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * When the lease is claimed and released relative to the beans that use it: a JDBC lease on H2,
 * each test with a table of its own.
 */
class LeaseLifecycleTest {

    private static String table() {
        return "idgen_lifecycle_lease_" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 8);
    }

    private static String url(String name) {
        return "jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1";
    }

    /**
     * The entities' users stop first, then the lease is released: when Hibernate's session factory
     * closes, the lease is still held and the generator still makes IDs, and the mark the lease
     * records as it releases covers the last of them. Released the other way round, a write made
     * while the entity manager factory closes would be refused, or worse, carry an ID the mark
     * does not cover, which the next holder of the id could repeat.
     */
    @Test
    void theEntityManagerFactoryClosesBeforeTheLeaseIsReleasedAndTheReleasedMarkCoversItsLastId() throws Exception {
        String table = table();
        String url = url("idgen_lifecycle_order");
        ClosingProbe probe = new ClosingProbe();
        TestGeneration.withHibernateProperty(new ApplicationContextRunner(), "hibernate.session_factory_observer", probe)
                .withConfiguration(AutoConfigurations.of(TestGeneration.DATA_SOURCE_AUTO_CONFIGURATION,
                        TestGeneration.HIBERNATE_JPA_AUTO_CONFIGURATION, IdgenLeaseAutoConfiguration.class,
                        IdgenAutoConfiguration.class))
                .withUserConfiguration(Entities.class)
                .withPropertyValues("spring.datasource.url=" + url, "idgen.machine-id.source=jdbc",
                        "idgen.machine-id.jdbc.table=" + table)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    probe.lease = context.getBean(MachineIdLease.class);
                    probe.snowflake = context.getBean(SnowflakeGenerator.class);
                    EntityManagerFactory emf = context.getBean(EntityManagerFactory.class);
                    EntityManager em = emf.createEntityManager();
                    em.getTransaction().begin();
                    Ticket ticket = new Ticket("first");
                    em.persist(ticket);
                    em.getTransaction().commit();
                    em.close();
                    SnowflakeGenerator snowflake = context.getBean(SnowflakeGenerator.class);
                    assertThat(snowflake.decode(ticket.id()).machineId())
                            .isEqualTo(context.getBean(MachineIdLease.class).machineId());
                });
        assertThat(probe.closed).as("the session factory closed").isTrue();
        assertThat(probe.heldWhileClosing).as("the lease was held while the session factory closed").isTrue();
        assertThat(probe.lastId).as("an id made while the session factory closed (" + probe.refused + ")")
                .isNotZero();
        try (Connection c = DriverManager.getConnection(url, "sa", ""); Statement st = c.createStatement()) {
            try (ResultSet rs = st.executeQuery("SELECT high_water_mark, expires_ms FROM " + table
                    + " WHERE machine_id = " + probe.machineId)) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getLong(1)).as("the released mark covers the last id")
                        .isGreaterThanOrEqualTo(probe.lastIdMillis);
                assertThat(rs.getLong(2)).as("released, not left to expire").isLessThan(System.currentTimeMillis());
            }
            st.execute("DROP TABLE " + table);
        }
    }

    /**
     * {@code idgen.snowflake.enabled=false} is a gate for the lease as well as the generator: an
     * application with a SnowflakeGenerator of its own and a lease source left in its properties
     * claims nothing (no lease bean, not even the lease table), instead of holding and renewing
     * an id nobody uses for as long as it runs.
     */
    @Test
    void withSnowflakeOffNoLeaseIsClaimedThoughASourceIsSetAndTheApplicationHasItsOwnGenerator() throws Exception {
        // the application's own generator, and its own layout bean too (with it, nothing else fails
        // that would show a lease the gate let through)
        for (Class<?> own : new Class<?>[] {OwnLayout.class, IdgenAutoConfigurationTest.OwnBeans.class}) {
            String table = table();
            String url = url("idgen_lifecycle_gate");
            new ApplicationContextRunner()
                    .withConfiguration(AutoConfigurations.of(TestGeneration.DATA_SOURCE_AUTO_CONFIGURATION,
                            IdgenLeaseAutoConfiguration.class, IdgenAutoConfiguration.class))
                    .withUserConfiguration(own)
                    .withPropertyValues("spring.datasource.url=" + url, "idgen.snowflake.enabled=false",
                            "idgen.machine-id.source=jdbc", "idgen.machine-id.jdbc.table=" + table)
                    .run(context -> {
                        assertThat(context).hasNotFailed();
                        assertThat(context).doesNotHaveBean(MachineIdLease.class);
                        assertThat(context.getBean(SnowflakeGenerator.class).machineId()).isEqualTo(5);
                    });
            try (Connection c = DriverManager.getConnection(url, "sa", ""); Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_NAME = '"
                            + table.toUpperCase(Locale.ROOT) + "'")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).as(own.getSimpleName() + ": lease table " + table).isZero();
            }
        }
    }

    /** An application that builds its Snowflake generator itself, on a layout bean of its own. */
    @Configuration(proxyBeanMethods = false)
    static class OwnLayout {
        @Bean
        SnowflakeLayout layout() {
            return SnowflakeLayout.DISCORD;
        }

        @Bean
        SnowflakeGenerator snowflake(SnowflakeLayout layout) {
            return SnowflakeGenerator.builder().layout(layout).machineId(5).build();
        }
    }

    /** The entities (the probe is Hibernate's session factory observer through a customizer bean). */
    @Configuration(proxyBeanMethods = false)
    @AutoConfigurationPackage(basePackageClasses = Ticket.class)
    static class Entities {
    }

    /** Notes, as the session factory closes, whether the lease is held and an id can be made. */
    static final class ClosingProbe implements SessionFactoryObserver {
        volatile MachineIdLease lease;
        volatile SnowflakeGenerator snowflake;
        volatile boolean closed;
        volatile boolean heldWhileClosing;
        volatile long machineId = -1;
        volatile long lastId;
        volatile long lastIdMillis;
        volatile String refused = "";

        @Override
        public void sessionFactoryClosing(SessionFactory factory) {
            closed = true;
            machineId = lease.machineId();
            heldWhileClosing = lease.isHeld();
            try {
                lastId = snowflake.nextLong(); // what a last flush would take
                lastIdMillis = snowflake.decode(lastId).timestamp().toEpochMilli();
            } catch (MachineIdLostException e) {
                refused = e.getMessage();
            }
        }
    }
}
