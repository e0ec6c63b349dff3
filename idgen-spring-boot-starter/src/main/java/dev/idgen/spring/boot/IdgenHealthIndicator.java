package dev.idgen.spring.boot;

import dev.idgen.machine.MachineIdLease;
import dev.idgen.snowflake.SnowflakeGenerator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * The {@code idgen} health: DOWN while the Snowflake generator's machine-id lease is not held (every
 * Snowflake id then fails with {@code MachineIdLostException}), UP otherwise, with the machine id,
 * the layout and the clock-backwards policy as details.
 */
public final class IdgenHealthIndicator implements HealthIndicator {

    private final SnowflakeGenerator snowflake;
    private final MachineIdLease lease;

    /**
     * @param snowflake the generator, or {@code null} without one
     * @param lease its machine-id lease, or {@code null} when the application built the generator itself
     */
    public IdgenHealthIndicator(SnowflakeGenerator snowflake, MachineIdLease lease) {
        this.snowflake = snowflake;
        this.lease = lease;
    }

    @Override
    public Health health() {
        Health.Builder health = lease == null || lease.isHeld() ? Health.up() : Health.down();
        if (lease != null) {
            health.withDetail("machineId", lease.machineId()).withDetail("lease", lease.toString());
        }
        if (snowflake != null) {
            health.withDetail("layout", snowflake.layout().name())
                    .withDetail("clockBackwards", snowflake.policy().toString());
        }
        return health.build();
    }
}
