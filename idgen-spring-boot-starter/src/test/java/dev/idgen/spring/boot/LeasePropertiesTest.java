package dev.idgen.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.lease.StoreLease;
import dev.idgen.machine.MachineIdLease;
import dev.idgen.snowflake.SnowflakeGenerator;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * What every lease store takes from {@code idgen.machine-id.<store>.*} besides its address: the
 * range of machine ids it hands out and the timings beyond ttl and renew-every, shown on JDBC leases
 * in H2 (each test with tables of its own); the other stores share the code that applies them.
 */
class LeasePropertiesTest {

    private static String table(String what) {
        return "idgen_props_" + what + "_" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 8);
    }

    private static ApplicationContextRunner jdbc(String database, String table, String... more) {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(TestGeneration.DATA_SOURCE_AUTO_CONFIGURATION,
                        IdgenLeaseAutoConfiguration.class, IdgenAutoConfiguration.class))
                .withPropertyValues("spring.datasource.url=jdbc:h2:mem:" + database + ";DB_CLOSE_DELAY=-1",
                        "idgen.machine-id.source=jdbc", "idgen.machine-id.jdbc.table=" + table)
                .withPropertyValues(more);
    }

    /**
     * One ID space moved from one store to another, old and new instances running at once: each
     * store hands out only its own declared range (0..511 and 512..1023, as docs/machine-ids.md
     * shows), so no machine id is held in both; two tables here, which know nothing of each other,
     * as two stores do not.
     */
    @Test
    void eachStoreHandsOutOnlyItsDeclaredRangeSoTwoStoresShareOneIdSpace() {
        ApplicationContextRunner old = jdbc("idgen_props_move", table("old"),
                "idgen.machine-id.jdbc.max-machine-id=511");
        ApplicationContextRunner moved = jdbc("idgen_props_move", table("new"),
                "idgen.machine-id.jdbc.min-machine-id=512");
        old.run(a -> moved.run(b -> moved.run(c -> {
            assertThat(a.getBean(MachineIdLease.class).machineId()).isZero();
            assertThat(b.getBean(MachineIdLease.class).machineId()).isEqualTo(512L);
            assertThat(c.getBean(MachineIdLease.class).machineId()).isEqualTo(513L);
            SnowflakeGenerator ids = c.getBean(SnowflakeGenerator.class);
            assertThat(ids.decode(ids.nextLong()).machineId()).isEqualTo(513L);
        })));
    }

    @Test
    void aRangeOutsideTheLayoutOrEmptyFailsNamingTheProperty() {
        String table = table("range");
        jdbc("idgen_props_range", table, "idgen.machine-id.jdbc.min-machine-id=1024").run(context ->
                assertThat(IdgenAutoConfigurationTest.rootCause(context.getStartupFailure())).hasMessage(
                        "idgen.machine-id.jdbc.min-machine-id=1024 is outside 0..1023 allowed by layout twitter"));
        jdbc("idgen_props_range", table, "idgen.machine-id.jdbc.max-machine-id=-1").run(context ->
                assertThat(IdgenAutoConfigurationTest.rootCause(context.getStartupFailure())).hasMessage(
                        "idgen.machine-id.jdbc.max-machine-id=-1 is outside 0..1023 allowed by layout twitter"));
        jdbc("idgen_props_range", table, "idgen.machine-id.jdbc.min-machine-id=9",
                "idgen.machine-id.jdbc.max-machine-id=8").run(context ->
                assertThat(IdgenAutoConfigurationTest.rootCause(context.getStartupFailure())).hasMessage(
                        "idgen.machine-id.jdbc.min-machine-id=9 is above idgen.machine-id.jdbc.max-machine-id=8; the"
                                + " range must hold at least one id"));
        jdbc("idgen_props_range", table, "idgen.snowflake.layout=instagram",
                "idgen.machine-id.jdbc.min-machine-id=9000").run(context ->
                assertThat(IdgenAutoConfigurationTest.rootCause(context.getStartupFailure())).hasMessage(
                        "idgen.machine-id.jdbc.min-machine-id=9000 is outside 0..8191 allowed by layout instagram"));
    }

    /** A fixed id checked in a store is held to that store's range as well. */
    @Test
    void aFixedIdOutsideTheCheckingStoresRangeIsRefused() {
        String table = table("fixed");
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(TestGeneration.DATA_SOURCE_AUTO_CONFIGURATION,
                        IdgenLeaseAutoConfiguration.class, IdgenAutoConfiguration.class))
                .withPropertyValues("spring.datasource.url=jdbc:h2:mem:idgen_props_fixed;DB_CLOSE_DELAY=-1",
                        "idgen.machine-id.source=fixed", "idgen.machine-id.value=7",
                        "idgen.machine-id.jdbc.table=" + table, "idgen.machine-id.jdbc.min-machine-id=512")
                .run(context -> assertThat(IdgenAutoConfigurationTest.rootCause(context.getStartupFailure())
                        .getMessage()).startsWith("idgen.machine-id.source=fixed gives machine id 7, checked in table "
                                + table + " (idgen.machine-id.check-with), and it cannot be claimed: machineId = 7 is"
                                + " outside the allowed range 512..1023"));
    }

    @Test
    void theSafetyMarginAndTheSkewBoundReachTheLeaseAndAreCheckedWithTheOtherTimings() {
        String table = table("timings");
        jdbc("idgen_props_timings", table, "idgen.machine-id.jdbc.ttl=10s",
                "idgen.machine-id.jdbc.safety-margin=1500ms", "idgen.machine-id.jdbc.max-clock-skew=250ms")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    StoreLease lease = (StoreLease) context.getBean(MachineIdLease.class);
                    assertThat(lease.timings().ttl()).isEqualTo(Duration.ofSeconds(10));
                    assertThat(lease.timings().renewEvery()).as("a fifth of the ttl").isEqualTo(Duration.ofSeconds(2));
                    assertThat(lease.timings().safetyMargin()).isEqualTo(Duration.ofMillis(1500));
                    assertThat(lease.timings().maxClockSkew()).isEqualTo(Duration.ofMillis(250));
                    assertThat(lease.isHeld()).isTrue();
                });
        // the defaults: a tenth of the ttl and 1 s
        jdbc("idgen_props_timings", table, "idgen.machine-id.jdbc.ttl=10s").run(context -> {
            StoreLease lease = (StoreLease) context.getBean(MachineIdLease.class);
            assertThat(lease.timings().safetyMargin()).isEqualTo(Duration.ofSeconds(1));
            assertThat(lease.timings().maxClockSkew()).isEqualTo(Duration.ofSeconds(1));
        });
        // 10 s fits the defaults (2 x 2 s + 2 x 1 s + 1 s); a 2.5 s skew bound does not
        jdbc("idgen_props_timings", table, "idgen.machine-id.jdbc.ttl=10s", "idgen.machine-id.jdbc.max-clock-skew=2500ms")
                .run(context -> assertThat(IdgenAutoConfigurationTest.rootCause(context.getStartupFailure())).hasMessage(
                        "idgen.machine-id.jdbc.ttl, renew-every, safety-margin and max-clock-skew do not fit together"
                                + " (unset ones take their defaults): Lease timings do not fit: ttl 10000 ms must exceed"
                                + " 2 x renewEvery (2000 ms) + 2 x the skew bound (2500 ms) + safetyMargin (1000 ms) ="
                                + " 10000 ms, or a healthy holder is fenced before its next renewal; lengthen the ttl or"
                                + " shorten the others"));
    }
}
