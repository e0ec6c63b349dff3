package dev.idgen.spring.boot;

import dev.idgen.lease.LeaseBuilder;
import dev.idgen.snowflake.SnowflakeLayout;

/**
 * Gives a store's lease builder what every store takes from {@code idgen.machine-id.<store>.*}: the
 * Snowflake layout, the range of machine ids and the timings. Each value is checked here, before
 * anything is claimed, so a bad one fails naming its property rather than the builder's setter.
 */
final class LeaseBuilders {

    private LeaseBuilders() {
    }

    /**
     * @param b the store's builder, its own settings (table, key prefix, ...) given already
     * @param store the store as in the property names: {@code jdbc}, {@code redis}, {@code zookeeper}, {@code etcd}
     * @param p the store's properties
     * @param layout the generator's layout: recorded with the namespace, and the bound of the range
     * @param storeHasClock false for a store that shows no clock (etcd), whose skew bound counts twice
     * @return {@code b}
     * @throws IdgenConfigurationException naming the property, if the range or the timings do not fit
     */
    static <B extends LeaseBuilder<B, ?>> B configure(B b, String store, IdgenProperties.TimedLease p,
            SnowflakeLayout layout, boolean storeHasClock) {
        String prefix = "idgen.machine-id." + store + ".";
        long top = Math.min(layout.maxMachineId(), LeaseBuilder.MAX_MACHINE_ID);
        long min = p.getMinMachineId();
        long max = p.getMaxMachineId() == null ? top : p.getMaxMachineId();
        inLayout(prefix + "min-machine-id", min, top, layout);
        inLayout(prefix + "max-machine-id", max, top, layout);
        if (min > max) {
            throw new IdgenConfigurationException(prefix + "min-machine-id=" + min + " is above "
                    + (p.getMaxMachineId() == null ? "the largest machine id of layout " + layout.name() + ", " + max
                            : prefix + "max-machine-id=" + max) + "; the range must hold at least one id");
        }
        b.layout(layout).minMachineId(min).maxMachineId(max).ttl(p.getTtl());
        if (p.getRenewEvery() != null) {
            b.renewEvery(p.getRenewEvery());
        }
        if (p.getSafetyMargin() != null) {
            b.safetyMargin(p.getSafetyMargin());
        }
        if (p.getMaxClockSkew() != null) {
            b.maxClockSkew(p.getMaxClockSkew());
        }
        try {
            b.timings(storeHasClock);
        } catch (IllegalArgumentException e) {
            throw new IdgenConfigurationException(prefix + "ttl, renew-every, safety-margin and max-clock-skew do not"
                    + " fit together (unset ones take their defaults): " + e.getMessage(), e);
        }
        return b;
    }

    private static void inLayout(String property, long id, long top, SnowflakeLayout layout) {
        if (id < 0 || id > top) {
            throw new IdgenConfigurationException(property + "=" + id + " is outside 0.." + top
                    + " allowed by layout " + layout.name());
        }
    }
}
