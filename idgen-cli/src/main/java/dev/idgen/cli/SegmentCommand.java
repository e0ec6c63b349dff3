package dev.idgen.cli;

import dev.idgen.cli.store.OpenStore;
import dev.idgen.segment.SegmentGenerator;
import dev.idgen.segment.SegmentUnavailableException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code idgen segment}: takes ranges of {@code --step} numbers of counter {@code --name} from one
 * segment store (a JDBC table, Redis, ZooKeeper or etcd) and prints {@code -n} numbers, one a line.
 * Ranges are fetched on this thread only when needed (no prefetch), so a run takes ceil(n / step)
 * ranges and drops the rest of the last one.
 */
@Command(name = "segment", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Take numbers from a segment store and print them, one a line.",
                "The store is one of: a JDBC table (--jdbc-url), Redis (--redis-url), ZooKeeper (--zookeeper),"
                + " etcd (--etcd); it keeps each counter as the modules' segment sources do.",
                "Every run takes fresh ranges: numbers never repeat across runs or with other users of the"
                + " counter; the unused rest of the last range is dropped."})
final class SegmentCommand implements Callable<Integer> {

    /** Each store's flag, and the flags that only it takes. */
    private static final Map<String, List<String>> STORES = Map.of(
            "--jdbc-url", List.of("--user", "--password", "--table", "--create-table"),
            "--redis-url", List.of("--key-prefix"),
            "--zookeeper", List.of("--path"),
            "--etcd", List.of("--namespace"));
    private static final List<String> ORDER = List.of("--jdbc-url", "--redis-url", "--zookeeper", "--etcd");

    @Spec
    private CommandSpec spec;

    @Option(names = "--jdbc-url", paramLabel = "URL",
            description = "A database, e.g. jdbc:postgresql://127.0.0.1:5432/app or jdbc:mariadb://host/app.")
    private String jdbcUrl;

    @Option(names = "--user", paramLabel = "USER", defaultValue = "",
            description = "Database user (default: none; --jdbc-url only).")
    private String user;

    @Option(names = "--password", paramLabel = "PASSWORD", defaultValue = "",
            description = "Database password (default: none; --jdbc-url only).")
    private String password;

    @Option(names = "--table", paramLabel = "TABLE", defaultValue = "idgen_segment",
            description = "The segment table (default: ${DEFAULT-VALUE}; --jdbc-url only).")
    private String table;

    @Option(names = "--create-table", description = "Create the table if it does not exist (--jdbc-url only).")
    private boolean createTable;

    @Option(names = "--redis-url", paramLabel = "URL", description = "A Redis server, e.g. redis://127.0.0.1:6379.")
    private String redisUrl;

    @Option(names = "--key-prefix", paramLabel = "PREFIX",
            description = "Put before the name to make the Redis key (default: idgen:segment:; --redis-url only).")
    private String keyPrefix;

    @Option(names = "--zookeeper", paramLabel = "HOST:PORT",
            description = "A ZooKeeper ensemble, e.g. 127.0.0.1:2181 (several separated by commas).")
    private String zookeeper;

    @Option(names = "--path", paramLabel = "PATH",
            description = "The counters' parent znode (default: /idgen/segments; --zookeeper only).")
    private String path;

    @Option(names = "--etcd", paramLabel = "URL",
            description = "An etcd cluster, e.g. http://127.0.0.1:2379 (several separated by commas).")
    private String etcd;

    @Option(names = "--namespace", paramLabel = "NAMESPACE",
            description = "Put before /<name> to make the etcd key (default: /idgen/segments; --etcd only).")
    private String namespace;

    @Option(names = "--allow-lossy-store", description = "Accept a store that may lose a grant it acknowledged (Redis"
            + " without appendonly/appendfsync always, a database with fsync or synchronous_commit off); without it such"
            + " a store is refused, naming the setting (--jdbc-url and --redis-url only).")
    private boolean allowLossyStore;

    @Option(names = "--name", required = true, paramLabel = "NAME", description = "The counter, e.g. orders.")
    private String name;

    @Option(names = "--step", paramLabel = "STEP", defaultValue = "1000",
            description = "Numbers per range taken from the store (default: ${DEFAULT-VALUE}).")
    private long step;

    @Option(names = "-n", paramLabel = "N", defaultValue = "1", description = "How many numbers (default: ${DEFAULT-VALUE}).")
    private long count;

    @Override
    public Integer call() {
        Counts.requirePositive(spec, count);
        String store = chosenStore();
        try {
            SegmentGenerator.checkName(name);
            SegmentGenerator.checkStep(step);
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
        try (OpenStore opened = open(store);
                // no prefetch and fetches on this thread: a short run takes no range it does not count in
                SegmentGenerator numbers = SegmentGenerator.builder().source(opened.source()).name(name).step(step)
                        .prefetch(0, 0).executor(Runnable::run).build()) {
            PrintWriter out = spec.commandLine().getOut();
            for (long i = 0; i < count; i++) {
                out.println(numbers.nextLong());
            }
            out.flush();
        } catch (SegmentUnavailableException e) {
            throw new BadInputException(e.getMessage() + " (" + store + " " + given(store) + ")");
        }
        return IdgenCommand.EXIT_OK;
    }

    /** The one store flag given; a usage error naming the flags for none, two, or another store's flag. */
    private String chosenStore() {
        List<String> given = new ArrayList<>();
        for (String flag : ORDER) {
            if (matched(flag)) {
                given.add(flag);
            }
        }
        if (given.isEmpty()) {
            throw usage("no store given; expected one of " + String.join(", ", ORDER));
        }
        if (given.size() > 1) {
            throw usage(String.join(" and ", given) + " given together; expected exactly one store of "
                    + String.join(", ", ORDER));
        }
        String store = given.get(0);
        if (allowLossyStore && !store.equals("--jdbc-url") && !store.equals("--redis-url")) {
            throw usage("--allow-lossy-store applies to --jdbc-url and --redis-url only, not to " + store);
        }
        for (String other : ORDER) {
            if (!other.equals(store)) {
                for (String flag : STORES.get(other)) {
                    if (matched(flag)) {
                        throw usage(flag + " applies to " + other + " only, not to " + store);
                    }
                }
            }
        }
        return store;
    }

    private OpenStore open(String store) {
        try {
            return switch (store) {
                case "--jdbc-url" -> OpenStore.jdbc(jdbcUrl, user, password, table, createTable, allowLossyStore);
                case "--redis-url" -> OpenStore.redis(redisUrl, keyPrefix, allowLossyStore);
                case "--zookeeper" -> OpenStore.zookeeper(zookeeper, path);
                case "--etcd" -> OpenStore.etcd(etcd, namespace);
                default -> throw new IllegalStateException("no store " + store);
            };
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        } catch (RuntimeException e) {
            throw new BadInputException("cannot use the segment store at " + given(store) + ": " + e.getMessage());
        }
    }

    private String given(String store) {
        return switch (store) {
            case "--jdbc-url" -> jdbcUrl;
            case "--redis-url" -> redisUrl;
            case "--zookeeper" -> zookeeper;
            default -> etcd;
        };
    }

    private boolean matched(String flag) {
        return spec.commandLine().getParseResult().hasMatchedOption(flag);
    }

    private CommandLine.ParameterException usage(String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }
}
