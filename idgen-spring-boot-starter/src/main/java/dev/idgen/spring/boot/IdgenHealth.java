package dev.idgen.spring.boot;

import dev.idgen.clock.ClockStats;
import dev.idgen.machine.MachineIdLease;
import dev.idgen.machine.spi.FencingLease;
import dev.idgen.snowflake.SnowflakeGenerator;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the {@code idgen} health reports (see {@code IdgenHealthIndicator}, which hands it to Spring
 * Boot): OUT_OF_SERVICE with {@code cannotMakeIds} while {@link GeneratorCheck#whyNot} names a
 * reason, UP otherwise; the details name the machine id, its source and lease, the layout, the
 * clock-backwards policy and the last clock refusals.
 */
final class IdgenHealth {

    private final GeneratorCheck check;
    private final String source;

    /**
     * @param check the generators and the lease
     * @param source where the machine id comes from ({@code idgen.machine-id.source}, or {@code custom})
     */
    IdgenHealth(GeneratorCheck check, String source) {
        this.check = check;
        this.source = source;
    }

    /** {@return the status and details as of now} */
    HealthReport report() {
        String whyNot = check.whyNot();
        Map<String, Object> details = new LinkedHashMap<>();
        if (whyNot != null) {
            details.put("cannotMakeIds", whyNot);
        }
        MachineIdLease lease = check.lease();
        if (lease != null) {
            details.put("machineId", lease.machineId());
            details.put("machineIdSource", source);
            details.put("machineIdChecked", checksUniqueness(lease));
            details.put("lease", lease.toString());
        }
        SnowflakeGenerator snowflake = check.snowflake();
        if (snowflake != null) {
            details.put("layout", snowflake.layout().name());
            details.put("fieldOrder", snowflake.layout().fieldOrder().hyphenated());
            details.put("clockBackwards", snowflake.policy().toString());
            lastRefusal("snowflake", snowflake.clockStats(), details);
        }
        if (check.uuidV7() != null) {
            lastRefusal("uuidV7", check.uuidV7().clockStats(), details);
        }
        return new HealthReport(whyNot == null ? HealthReport.State.UP : HealthReport.State.OUT_OF_SERVICE, details);
    }

    /**
     * Whether something outside this process makes sure no other process uses the machine id: a
     * coordinator-backed lease does; an id from configuration or the environment is only as unique
     * as the operator kept it.
     */
    static boolean checksUniqueness(MachineIdLease lease) {
        return lease instanceof FencingLease;
    }

    private static void lastRefusal(String name, ClockStats stats, Map<String, Object> details) {
        Instant last = GeneratorCheck.lastRefusal(stats);
        if (last != null) {
            details.put(name + "LastClockRefusal", last.toString());
        }
    }
}
