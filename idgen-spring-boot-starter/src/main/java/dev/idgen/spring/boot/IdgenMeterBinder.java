package dev.idgen.spring.boot;

import dev.idgen.machine.MachineIdLease;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * idgen's meters. Tags are few and fixed per process: {@code source} (where the machine id comes
 * from) and {@code generator}.
 * <ul>
 *   <li>{@code idgen.lease.held}: 1 while the machine-id lease is held, 0 while it is lost.</li>
 * </ul>
 */
public final class IdgenMeterBinder implements MeterBinder {

    private final MachineIdLease lease;
    private final String source;

    /**
     * @param lease the Snowflake generator's lease, or {@code null} without one
     * @param source where the machine id comes from, for the {@code source} tag
     */
    public IdgenMeterBinder(MachineIdLease lease, String source) {
        this.lease = lease;
        this.source = source;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        if (lease != null) {
            Gauge.builder("idgen.lease.held", lease, l -> l.isHeld() ? 1 : 0)
                    .description("1 while the Snowflake generator's machine-id lease is held, 0 while it is lost")
                    .tags(Tags.of("generator", "snowflake", "source", source))
                    .register(registry);
        }
    }
}
