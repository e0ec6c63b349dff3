package dev.idgen.spring.boot;

import dev.idgen.clock.ClockStats;
import dev.idgen.machine.MachineIdLease;
import dev.idgen.snowflake.SnowflakeGenerator;
import dev.idgen.uuid.UuidV7Generator;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

/**
 * idgen's meters. Tags are few and fixed per process: {@code generator} ({@code snowflake} or
 * {@code uuid-v7}) and, on the lease, {@code source} (where the machine id comes from).
 * <ul>
 *   <li>{@code idgen.lease.held} (gauge): 1 while the machine-id lease is held, 0 while it is lost;</li>
 *   <li>{@code idgen.lease.losses} (counter): times the held lease was lost (taken over, fenced by the
 *       clock bound, or not renewed in time);</li>
 *   <li>{@code idgen.lease.reclaims} (counter): times the lease, after it was fenced, claimed a machine
 *       id again by itself and carried the generator on under it;</li>
 *   <li>{@code idgen.clock.steps.back} (counter): clock readings behind the last tick used;</li>
 *   <li>{@code idgen.clock.step.back.max} (gauge, milliseconds): the largest step back seen;</li>
 *   <li>{@code idgen.clock.tick.waits} (counter): waits for the clock to reach the next tick;</li>
 *   <li>{@code idgen.clock.refusals} (counter): ids refused because the clock was too far back;</li>
 *   <li>{@code idgen.clock.run.aheads} (counter): ids issued ahead of the clock.</li>
 * </ul>
 * The counters are read from the generators' {@link ClockStats} when the registry publishes, never
 * on the id path.
 */
public final class IdgenMeterBinder implements MeterBinder {

    private final MachineIdLease lease;
    private final String source;
    private final SnowflakeGenerator snowflake;
    private final UuidV7Generator uuidV7;

    /**
     * @param lease the Snowflake generator's lease, or {@code null} without one
     * @param source where the machine id comes from, for the {@code source} tag
     * @param snowflake the Snowflake generator, or {@code null}
     * @param uuidV7 the UUIDv7 generator, or {@code null}
     */
    public IdgenMeterBinder(MachineIdLease lease, String source, SnowflakeGenerator snowflake, UuidV7Generator uuidV7) {
        this.lease = lease;
        this.source = source;
        this.snowflake = snowflake;
        this.uuidV7 = uuidV7;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        if (lease != null) {
            Gauge.builder("idgen.lease.held", lease, l -> l.isHeld() ? 1 : 0)
                    .description("1 while the Snowflake generator's machine-id lease is held, 0 while it is lost")
                    .tags(Tags.of("generator", "snowflake", "source", source))
                    .register(registry);
            FunctionCounter.builder("idgen.lease.losses", lease, MachineIdLease::losses)
                    .description("times the machine-id lease was lost while held")
                    .tags(Tags.of("generator", "snowflake", "source", source))
                    .register(registry);
            FunctionCounter.builder("idgen.lease.reclaims", lease, MachineIdLease::reclaims)
                    .description("times the machine-id lease claimed an id again by itself after it was fenced")
                    .tags(Tags.of("generator", "snowflake", "source", source))
                    .register(registry);
        }
        if (snowflake != null) {
            bindClock(registry, "snowflake", snowflake::clockStats);
        }
        if (uuidV7 != null) {
            bindClock(registry, "uuid-v7", uuidV7::clockStats);
        }
    }

    private static void bindClock(MeterRegistry registry, String generator, Supplier<ClockStats> stats) {
        Tags tags = Tags.of("generator", generator);
        counter(registry, "idgen.clock.steps.back", "clock readings behind the last tick used", tags, stats,
                ClockStats::stepsBack);
        counter(registry, "idgen.clock.tick.waits", "waits for the clock to reach the next tick", tags, stats,
                ClockStats::tickWaits);
        counter(registry, "idgen.clock.refusals", "ids refused because the clock was too far back", tags, stats,
                ClockStats::refusals);
        counter(registry, "idgen.clock.run.aheads", "ids issued ahead of the clock", tags, stats,
                ClockStats::runAheads);
        Gauge.builder("idgen.clock.step.back.max", stats, s -> s.get().maxStepBackMillis())
                .description("the largest clock step back seen").baseUnit("milliseconds").tags(tags)
                .register(registry);
    }

    private static void counter(MeterRegistry registry, String name, String description, Tags tags,
            Supplier<ClockStats> stats, ToDoubleFunction<ClockStats> value) {
        FunctionCounter.builder(name, stats, s -> value.applyAsDouble(s.get())).description(description).tags(tags)
                .register(registry);
    }
}
