package dev.idgen.spring.boot;

import java.util.Locale;

/**
 * The failure for a lease store (Redis, ZooKeeper, etcd) that gave no answer while the application
 * started: the message says what was tried and what came back, and the report's Action names the
 * store, the setting the starter took its address from, and asks whether the server runs, as
 * {@link DataSourceFailures} does for the database. The starter reads its own
 * {@code idgen.machine-id.<store>.*} address (or uses the application's client bean), never
 * Spring Boot's {@code spring.data.redis.*}, so that is the setting named.
 */
final class StoreFailures {

    private StoreFailures() {
    }

    /**
     * {@return what needs {@code store}: {@code idgen.machine-id.source=<store>}, or the check of an id
     * from configuration in it ({@code idgen.machine-id.check-with})}
     *
     * @param store the source's name, e.g. {@code redis}
     */
    static String use(IdgenProperties.MachineId p, String store) {
        String source = Configure.sourceName(p);
        return source.equals(store) ? "idgen.machine-id.source=" + store
                : "idgen.machine-id.check-with=" + p.getCheckWith().name().toLowerCase(Locale.ROOT)
                        + " (checking the id from"
                        + " idgen.machine-id.source=" + source + " in " + store + ")";
    }

    /**
     * @param use what needed the store, e.g. {@code idgen.machine-id.source=redis}
     * @param store the store's name, e.g. {@code Redis}
     * @param setting the property and value the address came from ({@code idgen.machine-id.redis.url=redis://host:6379}),
     *     or the application's bean, as {@code the application's RedisClient bean}
     * @param what what did not answer, e.g. {@code could not connect: Connection refused}
     * @param cause the client's failure, or null
     * @return the exception whose Action names the setting and asks whether the server runs
     */
    static IdgenConfigurationException unreachable(String use, String store, String setting, String what,
            Throwable cause) {
        boolean bean = setting.startsWith("the application's ");
        String action = bean
                ? "Check the " + store + " server that " + setting + " connects to: it gave no answer. Is it running,"
                        + " and reachable from this host?"
                : "Check " + setting + ": no " + store + " server answered there. Are the host and port right, and is"
                        + " the " + store + " server running and reachable from this host?";
        return new IdgenConfigurationException(use + ": " + store + " at " + setting + " " + what, action, cause);
    }
}
