package dev.idgen.spring.boot;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Turns an {@link IdgenConfigurationException} into Spring Boot's "APPLICATION FAILED TO START"
 * report: the message as the description, the properties to set as the action. When a cause is the
 * database refusing the connection, the action names the {@code spring.datasource.*} setting to check
 * ({@code DataSourceFailures}); a Redis, ZooKeeper or etcd lease store that gave no answer comes with
 * its own action, naming the setting its address came from ({@code StoreFailures}).
 */
public final class IdgenFailureAnalyzer extends AbstractFailureAnalyzer<IdgenConfigurationException> {

    /** Made by Spring Boot. */
    public IdgenFailureAnalyzer() {
    }

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, IdgenConfigurationException cause) {
        // a database that refused the connection is the datasource's settings, not idgen's
        String database = DataSourceFailures.action(cause);
        String action = database != null ? database : cause.action() != null ? cause.action()
                : "Set the idgen.* properties named above (the table of them is in docs/spring-boot.md).";
        return new FailureAnalysis(cause.getMessage(), action, cause);
    }
}
