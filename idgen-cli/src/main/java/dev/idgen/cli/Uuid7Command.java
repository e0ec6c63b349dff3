package dev.idgen.cli;

import dev.idgen.uuid.UuidV7Generator;
import dev.idgen.uuid.Uuids;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code idgen uuid7}: version 7 UUIDs from core's {@link UuidV7Generator}, one a line. */
@Command(name = "uuid7", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = "Make UUIDv7s (RFC 9562, time-ordered), one a line.")
final class Uuid7Command implements Callable<Integer> {

    private final CliContext context;

    @Spec
    private CommandSpec spec;

    @Option(names = "-n", paramLabel = "N", defaultValue = "1", description = "How many UUIDs (default: ${DEFAULT-VALUE}).")
    private long count;

    @Option(names = "--no-monotonic",
            description = "Time and 74 fresh random bits, no counter: UUIDs sort by millisecond but not within one.")
    private boolean notMonotonic;

    Uuid7Command(CliContext context) {
        this.context = context;
    }

    @Override
    public Integer call() {
        Counts.requirePositive(spec, count);
        UuidV7Generator ids = UuidV7Generator.builder().clock(context.clock()).monotonic(!notMonotonic).build();
        IdLines.write(spec.commandLine().getOut(), count, () -> Uuids.toString(ids.next()));
        return IdgenCommand.EXIT_OK;
    }
}
