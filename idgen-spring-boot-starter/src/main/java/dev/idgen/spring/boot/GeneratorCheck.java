package dev.idgen.spring.boot;

import dev.idgen.clock.ClockStats;
import dev.idgen.machine.MachineIdLease;
import dev.idgen.snowflake.SnowflakeGenerator;
import dev.idgen.uuid.UuidV7Generator;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Objects;

/**
 * Whether the generators can make IDs right now, and if not, why: the one answer that the
 * {@code idgen} health and the readiness state both give. It reads the lease's state and the
 * generators' clock statistics, never the ID path.
 */
final class GeneratorCheck {

    private final SnowflakeGenerator snowflake;
    private final MachineIdLease lease;
    private final UuidV7Generator uuidV7;
    private final Duration refusalWindow;
    private final InstantSource clock;

    /**
     * @param snowflake the Snowflake generator, or {@code null}
     * @param lease its lease, or {@code null} when the application built the generator itself
     * @param uuidV7 the UUIDv7 generator, or {@code null}
     * @param refusalWindow how long after a clock refusal a generator counts as unable to make IDs
     * @param clock what "now" is for the window
     */
    GeneratorCheck(SnowflakeGenerator snowflake, MachineIdLease lease, UuidV7Generator uuidV7,
            Duration refusalWindow, InstantSource clock) {
        if (refusalWindow == null || refusalWindow.isNegative()) {
            throw new IdgenConfigurationException("idgen.health.refusal-window=" + refusalWindow
                    + " must be 0 or more (for example 30s)");
        }
        this.snowflake = snowflake;
        this.lease = lease;
        this.uuidV7 = uuidV7;
        this.refusalWindow = refusalWindow;
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    SnowflakeGenerator snowflake() {
        return snowflake;
    }

    MachineIdLease lease() {
        return lease;
    }

    UuidV7Generator uuidV7() {
        return uuidV7;
    }

    /**
     * {@return {@code null} while every generator can make IDs; else why one cannot: the lease is
     * not held (fenced, claiming again, released), or a clock refusal is within the window}
     */
    String whyNot() {
        if (lease != null && !lease.isHeld()) {
            return "the machine-id lease is not held (" + lease + ")";
        }
        String refused = snowflake == null ? null : refusal("Snowflake", snowflake.clockStats());
        if (refused == null && uuidV7 != null) {
            refused = refusal("UUIDv7", uuidV7.clockStats());
        }
        return refused;
    }

    /** {@return the last refusal, or null when there was none} */
    static Instant lastRefusal(ClockStats stats) {
        return stats.refusals() == 0 ? null : Instant.ofEpochMilli(stats.lastRefusalMillis());
    }

    private String refusal(String generator, ClockStats stats) {
        Instant last = lastRefusal(stats);
        // within the window while last + window is not yet behind now (the window is closed at its end)
        if (last == null || last.plus(refusalWindow).isBefore(clock.instant())) {
            return null;
        }
        return "the " + generator + " generator's clock was refused at " + last
                + ", within idgen.health.refusal-window (" + refusalWindow + ")";
    }
}
