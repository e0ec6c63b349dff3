package dev.idgen.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.lease.jdbc.JdbcMachineIdLease;
import dev.idgen.machine.MachineIdLease;
import dev.idgen.snowflake.SnowflakeGenerator;
import dev.idgen.spring.boot.jpa.Receipt;
import dev.idgen.spring.boot.jpa.Ticket;
import dev.idgen.testsupport.Missing;
import dev.idgen.testsupport.TestPostgres;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

/**
 * The service path on real PostgreSQL and MariaDB, as an application on this starter's Boot has it:
 * a JDBC lease in the application's database, {@code @Snowflake} and {@code @UuidV7} entities
 * persisted through Spring Boot's JPA, the {@code idgen} health and the lease's meters.
 */
class EntityIdsOnEnginesTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource({"PostgreSQL, jdbc:postgresql://127.0.0.1:5432/test, postgres",
            "MariaDB, jdbc:mariadb://127.0.0.1:3306/test, root"})
    void entitiesGetUniqueIdsFromTheLeasedMachineIdAndHealthAndMetersReportTheLease(String engine, String configured,
            String user) throws Exception {
        // PostgreSQL: the machine's or a private one (TestPostgres); MariaDB: the machine's, else a skip naming it
        String url = engine.equals("PostgreSQL") ? TestPostgres.server().url() : configured;
        try (Connection c = DriverManager.getConnection(url, user, "")) {
            c.isValid(2);
        } catch (SQLException e) {
            throw Missing.server(engine, url + " does not answer: " + e.getMessage(), Missing.apt("mariadb-server"));
        }
        String table = "idgen_engine_lease_" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 8);
        try {
            new ApplicationContextRunner()
                    .withConfiguration(AutoConfigurations.of(TestGeneration.DATA_SOURCE_AUTO_CONFIGURATION,
                            TestGeneration.HIBERNATE_JPA_AUTO_CONFIGURATION, IdgenLeaseAutoConfiguration.class,
                            IdgenAutoConfiguration.class))
                    .withUserConfiguration(Entities.class)
                    .withPropertyValues("spring.datasource.url=" + url, "spring.datasource.username=" + user,
                            "spring.jpa.hibernate.ddl-auto=create-drop", "idgen.machine-id.source=jdbc",
                            "idgen.machine-id.jdbc.table=" + table)
                    .run(context -> {
                        assertThat(context).hasNotFailed();
                        MachineIdLease lease = context.getBean(MachineIdLease.class);
                        assertThat(lease).isInstanceOf(JdbcMachineIdLease.class);
                        SnowflakeGenerator snowflake = context.getBean(SnowflakeGenerator.class);
                        EntityManagerFactory emf = context.getBean(EntityManagerFactory.class);

                        List<Ticket> tickets = new ArrayList<>();
                        List<Receipt> receipts = new ArrayList<>();
                        for (int tx = 0; tx < 5; tx++) {
                            EntityManager em = emf.createEntityManager();
                            em.getTransaction().begin();
                            for (int i = 0; i < 40; i++) {
                                Ticket t = new Ticket(engine + " " + tx + "/" + i);
                                em.persist(t);
                                tickets.add(t);
                                Receipt r = new Receipt(engine + " " + tx + "/" + i);
                                em.persist(r);
                                receipts.add(r);
                            }
                            em.getTransaction().commit();
                            em.close();
                        }
                        Set<Long> ticketIds = new HashSet<>();
                        long previous = Long.MIN_VALUE;
                        for (Ticket t : tickets) {
                            assertThat(ticketIds.add(t.id())).as("unique: " + t.id()).isTrue();
                            assertThat(t.id()).as("in order of persist").isGreaterThan(previous);
                            previous = t.id();
                            assertThat(snowflake.decode(t.id()).machineId()).isEqualTo(lease.machineId());
                        }
                        Set<UUID> receiptIds = new HashSet<>();
                        for (Receipt r : receipts) {
                            assertThat(r.id().version()).isEqualTo(7);
                            assertThat(receiptIds.add(r.id())).as("unique: " + r.id()).isTrue();
                        }
                        EntityManager em = emf.createEntityManager();
                        assertThat(em.createQuery("select count(t) from Ticket t", Long.class).getSingleResult())
                                .isEqualTo(200L);
                        assertThat(em.createQuery("select count(distinct r.id) from Receipt r", Long.class)
                                .getSingleResult()).isEqualTo(200L);
                        Long max = em.createQuery("select max(t.id) from Ticket t", Long.class).getSingleResult();
                        assertThat(max).isEqualTo(tickets.get(tickets.size() - 1).id());
                        em.close();

                        IdgenHealthIndicator health = context.getBean(IdgenHealthIndicator.class);
                        assertThat(health.health().getStatus().getCode()).isEqualTo("UP");
                        assertThat(health.health().getDetails()).containsEntry("machineId", lease.machineId())
                                .containsEntry("machineIdSource", "jdbc").containsEntry("machineIdChecked", true);

                        SimpleMeterRegistry registry = new SimpleMeterRegistry();
                        context.getBean(IdgenMeterBinder.class).bindTo(registry);
                        assertThat(registry.get("idgen.lease.held").gauge().value()).isEqualTo(1.0);
                        assertThat(registry.get("idgen.lease.losses").functionCounter().count()).isZero();
                    });
        } finally {
            try (Connection c = DriverManager.getConnection(url, user, ""); Statement st = c.createStatement()) {
                st.execute("DROP TABLE IF EXISTS " + table);
            }
        }
    }

    /** The test entities. */
    @Configuration(proxyBeanMethods = false)
    @AutoConfigurationPackage(basePackageClasses = Ticket.class)
    static class Entities {
    }
}
