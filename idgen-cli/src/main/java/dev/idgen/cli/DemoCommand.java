package dev.idgen.cli;

import dev.idgen.cli.demo.Demo;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code idgen demo}: the five classic scenarios, deterministic, on the real generators. */
@Command(name = "demo", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Walk through five classic scenarios on the real generators.",
                "With a clock the demo moves: the bits of two machines' IDs, 4,097 requests in one millisecond, a clock stepping back 5 ms, "
                + "v7 versus v4 sorting, and 12 inserts into a B+ tree of 4-key leaves.",
                "The output is the same on every run (fixed clock start and seeds)."})
final class DemoCommand implements Callable<Integer> {

    private final CliContext context;

    @Spec
    private CommandSpec spec;

    DemoCommand(CliContext context) {
        this.context = context;
    }

    @Override
    public Integer call() {
        new Demo(spec.commandLine().getOut(), context.stdoutIsTerminal()).run();
        return IdgenCommand.EXIT_OK;
    }
}
