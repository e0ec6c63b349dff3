package dev.idgen.spring.boot;

import dev.idgen.clock.ClockStats;
import dev.idgen.machine.MachineIdLease;
import dev.idgen.snowflake.SnowflakeGenerator;
import dev.idgen.uuid.UuidV7Generator;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * The {@code idgen} health. DOWN while the Snowflake generator's machine-id lease is not held (every
 * Snowflake id then fails with {@code MachineIdLostException}), and while a generator's clock is
 * being refused (a {@code ClockMovedBackwardsException} within the refusal window,
 * {@code idgen.health.refusal-window}); UP otherwise. Details: the machine id and lease, the layout
 * and its field order, the clock-backwards policies and the last refusal.
 */
public final class IdgenHealthIndicator implements HealthIndicator {

    private final SnowflakeGenerator snowflake;
    private final MachineIdLease lease;
    private final UuidV7Generator uuidV7;
    private final Duration refusalWindow;
    private final InstantSource clock;

    /**
     * @param snowflake the Snowflake generator, or {@code null} without one
     * @param lease its machine-id lease, or {@code null} when the application built the generator itself
     * @param uuidV7 the UUIDv7 generator, or {@code null}
     * @param refusalWindow how long after a refusal the health stays DOWN
     */
    public IdgenHealthIndicator(SnowflakeGenerator snowflake, MachineIdLease lease, UuidV7Generator uuidV7,
            Duration refusalWindow) {
        this(snowflake, lease, uuidV7, refusalWindow, InstantSource.system());
    }

    IdgenHealthIndicator(SnowflakeGenerator snowflake, MachineIdLease lease, UuidV7Generator uuidV7,
            Duration refusalWindow, InstantSource clock) {
        this.snowflake = snowflake;
        this.lease = lease;
        this.uuidV7 = uuidV7;
        this.refusalWindow = refusalWindow;
        this.clock = clock;
    }

    @Override
    public Health health() {
        boolean up = lease == null || lease.isHeld();
        Health.Builder health = Health.unknown();
        if (lease != null) {
            health.withDetail("machineId", lease.machineId()).withDetail("lease", lease.toString());
        }
        if (snowflake != null) {
            health.withDetail("layout", snowflake.layout().name())
                    .withDetail("fieldOrder", snowflake.layout().fieldOrder().hyphenated())
                    .withDetail("clockBackwards", snowflake.policy().toString());
            up &= clock("snowflake", snowflake.clockStats(), health);
        }
        if (uuidV7 != null) {
            up &= clock("uuidV7", uuidV7.clockStats(), health);
        }
        return (up ? health.up() : health.down()).build();
    }

    /** Adds the last refusal, if any; false while it is within the window. */
    private boolean clock(String name, ClockStats stats, Health.Builder health) {
        if (stats.refusals() == 0) {
            return true;
        }
        Instant last = Instant.ofEpochMilli(stats.lastRefusalMillis());
        health.withDetail(name + "LastClockRefusal", last.toString());
        return last.plus(refusalWindow).isBefore(clock.instant());
    }
}
