package dev.idgen.cli;

import dev.idgen.uuid.UuidV4Generator;
import dev.idgen.uuid.Uuids;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code idgen uuid4}: version 4 UUIDs from core's {@link UuidV4Generator}, one a line. */
@Command(name = "uuid4", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = "Make UUIDv4s (RFC 9562, 122 random bits), one a line.")
final class Uuid4Command implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "-n", paramLabel = "N", defaultValue = "1", description = "How many UUIDs (default: ${DEFAULT-VALUE}).")
    private long count;

    @Override
    public Integer call() {
        Counts.requirePositive(spec, count);
        UuidV4Generator ids = UuidV4Generator.builder().build();
        IdLines.write(spec.commandLine().getOut(), count, () -> Uuids.toString(ids.next()));
        return IdgenCommand.EXIT_OK;
    }
}
