package dev.idgen.cli;

import dev.idgen.snowflake.SnowflakeGenerator;
import dev.idgen.snowflake.SnowflakeLayout;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code idgen snowflake}: Snowflake IDs from core's {@link SnowflakeGenerator}, one a line. */
@Command(name = "snowflake", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = "Make Snowflake IDs (64-bit, time-ordered), one a line.")
final class SnowflakeCommand implements Callable<Integer> {

    private final CliContext context;

    @Spec
    private CommandSpec spec;

    @Option(names = "-n", paramLabel = "N", defaultValue = "1", description = "How many IDs (default: ${DEFAULT-VALUE}).")
    private long count;

    @Option(names = "--machine", paramLabel = "M", defaultValue = "0",
            description = "Machine id, unique among writers: 0..1023 for twitter and discord, 0..8191 for "
                    + "instagram, 0..65535 for sonyflake (default: ${DEFAULT-VALUE}).")
    private long machine;

    @Option(names = "--layout", paramLabel = "LAYOUT", defaultValue = "twitter", converter = LayoutConverter.class,
            description = "Bit layout: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).",
            completionCandidates = LayoutConverter.Names.class)
    private SnowflakeLayout layout;

    @Option(names = "--field-order", paramLabel = "ORDER", converter = FieldOrderConverter.class,
            description = "Order of the fields, high bits first: ${COMPLETION-CANDIDATES} (default: the layout's"
                    + " own). machine-time-sequence puts the machine id on top: one append point per writer, no time order across machines; see docs/snowflake.md.",
            completionCandidates = FieldOrderConverter.Names.class)
    private SnowflakeLayout.FieldOrder fieldOrder;

    SnowflakeCommand(CliContext context) {
        this.context = context;
    }

    @Override
    public Integer call() {
        Counts.requirePositive(spec, count);
        SnowflakeLayout layout = FieldOrderConverter.apply(spec, this.layout, fieldOrder);
        if (machine < 0 || machine > layout.maxMachineId()) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--machine " + machine
                    + " is outside layout " + layout.name() + "'s range 0.." + layout.maxMachineId());
        }
        SnowflakeGenerator ids = SnowflakeGenerator.builder().layout(layout).machineId(machine)
                .clock(context.clock()).build();
        IdLines.write(spec.commandLine().getOut(), count, () -> Long.toString(ids.nextLong()));
        return IdgenCommand.EXIT_OK;
    }
}
