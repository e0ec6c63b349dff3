package dev.idgen.cli;

import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/** The {@code -n} check the generating commands share. */
final class Counts {

    private Counts() {
    }

    static void requirePositive(CommandSpec spec, long count) {
        if (count < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "-n " + count + " is out of range; expected 1 or more IDs");
        }
    }
}
