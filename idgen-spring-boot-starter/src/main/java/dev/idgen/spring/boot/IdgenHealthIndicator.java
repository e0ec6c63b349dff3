package dev.idgen.spring.boot;

import dev.idgen.machine.MachineIdLease;
import dev.idgen.snowflake.SnowflakeGenerator;
import dev.idgen.uuid.UuidV7Generator;
import java.time.Duration;
import java.time.InstantSource;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * The {@code idgen} health. OUT_OF_SERVICE while a generator cannot make IDs: the Snowflake
 * generator's machine-id lease is not held (fenced, or claiming again: every Snowflake id then fails
 * with {@code MachineIdLostException}), or a generator's clock was refused (a
 * {@code ClockMovedBackwardsException}) within {@code idgen.health.refusal-window}; UP otherwise.
 * OUT_OF_SERVICE, not DOWN: the process is alive and comes back by itself, so it belongs out of
 * the readiness group, not restarted.
 *
 * <p>Details: the machine id, where it comes from ({@code machineIdSource}) and whether anything
 * checks that no other process uses it ({@code machineIdChecked}: only a coordinator-backed lease
 * does), the lease, the layout and its field order, the clock-backwards policy, the last refusal,
 * and while not UP why not ({@code cannotMakeIds}).
 */
public final class IdgenHealthIndicator implements HealthIndicator {

    private final IdgenHealth health;

    /**
     * @param snowflake the Snowflake generator, or {@code null} without one
     * @param lease its machine-id lease, or {@code null} when the application built the generator itself
     * @param uuidV7 the UUIDv7 generator, or {@code null}
     * @param refusalWindow how long after a refusal the health stays OUT_OF_SERVICE
     */
    public IdgenHealthIndicator(SnowflakeGenerator snowflake, MachineIdLease lease, UuidV7Generator uuidV7,
            Duration refusalWindow) {
        this(snowflake, lease, "custom", uuidV7, refusalWindow);
    }

    /**
     * @param snowflake the Snowflake generator, or {@code null} without one
     * @param lease its machine-id lease, or {@code null} when the application built the generator itself
     * @param source where the machine id comes from ({@code idgen.machine-id.source}, or {@code custom})
     * @param uuidV7 the UUIDv7 generator, or {@code null}
     * @param refusalWindow how long after a refusal the health stays OUT_OF_SERVICE
     */
    public IdgenHealthIndicator(SnowflakeGenerator snowflake, MachineIdLease lease, String source,
            UuidV7Generator uuidV7, Duration refusalWindow) {
        this(new GeneratorCheck(snowflake, lease, uuidV7, refusalWindow, InstantSource.system()), source);
    }

    IdgenHealthIndicator(SnowflakeGenerator snowflake, MachineIdLease lease, UuidV7Generator uuidV7,
            Duration refusalWindow, InstantSource clock) {
        this(new GeneratorCheck(snowflake, lease, uuidV7, refusalWindow, clock), "custom");
    }

    IdgenHealthIndicator(GeneratorCheck check, String source) {
        this.health = new IdgenHealth(check, source);
    }

    @Override
    public Health health() {
        HealthReport report = health.report();
        return Health.status(report.state().name()).withDetails(report.details()).build();
    }
}
