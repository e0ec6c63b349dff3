package dev.idgen.spring.boot;

import dev.idgen.machine.MachineIdLease;
import dev.idgen.snowflake.SnowflakeLayout;
import javax.sql.DataSource;
import org.springframework.util.ClassUtils;

/**
 * An id from {@code fixed}, {@code env} or {@code pod-ordinal}, claimed exactly in a lease store
 * ({@code idgen.machine-id.check-with}) so a second instance on the same id fails at start instead
 * of repeating the first one's IDs. The rule for {@code auto}: the JDBC lease table when
 * idgen-jdbc is on the classpath and the application has a DataSource, else nothing (the
 * starter then warns once, {@link Configure#warnIfUnchecked}).
 */
final class CheckedIds {

    private static final String JDBC_LEASE = "dev.idgen.lease.jdbc.JdbcMachineIdLease";

    private CheckedIds() {
    }

    /**
     * {@return {@code configured} claimed in the store {@code check-with} names, or {@code null}
     * when nothing checks it (check-with none, or auto with no store)}
     *
     * @throws IdgenConfigurationException if the id is held by a live lease (naming its owner), or
     *     check-with names a store the application does not have
     */
    static MachineIdLease claim(IdgenProperties.MachineId p, SnowflakeLayout layout, MachineIdLease configured,
            DataSource dataSource) {
        IdgenProperties.Source source = p.getSource();
        if (source != IdgenProperties.Source.FIXED && source != IdgenProperties.Source.ENV
                && source != IdgenProperties.Source.POD_ORDINAL) {
            return null;
        }
        boolean jdbcPresent = ClassUtils.isPresent(JDBC_LEASE, null);
        switch (p.getCheckWith()) {
            case NONE:
                return null;
            case AUTO:
                if (!jdbcPresent || dataSource == null) {
                    return null;
                }
                break;
            case JDBC:
                if (!jdbcPresent || dataSource == null) {
                    throw new IdgenConfigurationException("idgen.machine-id.check-with=jdbc needs "
                            + (!jdbcPresent ? "dev.idgen:idgen-jdbc on the classpath"
                                    : "a DataSource bean (spring.datasource.url)")
                            + "; or set idgen.machine-id.check-with=none to start with the id unchecked");
                }
                break;
            default:
                throw new IllegalStateException("unknown check-with " + p.getCheckWith());
        }
        return JdbcLeases.acquireExact(p.getJdbc(), layout, dataSource, configured.machineId(),
                Configure.sourceName(source), Configure.where(p));
    }
}
