package dev.idgen.cli;

import java.io.BufferedWriter;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code idgen}: the command-line face of idgen. Each subcommand is a thin shell over core (the
 * generators, {@link dev.idgen.decode.IdDecoder}) or the testkit (the index model).
 *
 * <p>Exit codes: {@value #EXIT_OK} on success, {@value #EXIT_BAD_INPUT} on input that cannot be used
 * (an ID that is not one), {@value #EXIT_USAGE} on a usage error (an unknown option, a value out of
 * range). Every error is one line on standard error; no stack trace is ever printed.
 */
@Command(name = "idgen", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = "Make, decode and compare IDs: Snowflake, UUIDv7, UUIDv4.",
        commandListHeading = "%nCommands:%n",
        footer = {"", "Exit codes: 0 ok, 1 bad input, 2 usage error.",
                "Start with: idgen demo"})
public final class IdgenCommand implements Callable<Integer> {

    /** Success. */
    public static final int EXIT_OK = 0;

    /** Input that cannot be used, such as an ID that is not one. */
    public static final int EXIT_BAD_INPUT = 1;

    /** A usage error: unknown option, missing or out-of-range value. */
    public static final int EXIT_USAGE = 2;

    @Spec
    private CommandSpec spec;

    /**
     * Runs {@code idgen} in this process and exits with its exit code.
     *
     * @param args the command line
     */
    public static void main(String[] args) {
        System.setProperty("java.awt.headless", "true");
        PrintWriter out = new PrintWriter(new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8)));
        PrintWriter err = new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
        int code = commandLine(CliContext.system(), out, err).execute(args);
        out.flush();
        err.flush();
        System.exit(code);
    }

    /**
     * The whole command tree, ready to {@link CommandLine#execute(String...) execute}, writing to
     * the writers given.
     *
     * @param context clock, standard input and terminals
     * @param out standard output
     * @param err standard error
     * @return the command line
     */
    public static CommandLine commandLine(CliContext context, PrintWriter out, PrintWriter err) {
        CommandLine cmd = new CommandLine(new IdgenCommand());
        cmd.addSubcommand(new SnowflakeCommand(context));
        cmd.addSubcommand(new Uuid7Command(context));
        cmd.addSubcommand(new Uuid4Command());
        cmd.addSubcommand(new SegmentCommand());
        cmd.addSubcommand(new DecodeCommand(context));
        cmd.addSubcommand(new IndexCommand(context));
        cmd.addSubcommand(new DemoCommand(context));
        // set after the subcommands are added: each setter reaches the whole tree as it is then
        cmd.setOut(out);
        cmd.setErr(err);
        cmd.setCaseInsensitiveEnumValuesAllowed(true);
        cmd.setColorScheme(CommandLine.Help.defaultColorScheme(
                context.stdoutIsTerminal() ? CommandLine.Help.Ansi.ON : CommandLine.Help.Ansi.OFF));
        cmd.setParameterExceptionHandler(IdgenCommand::usageError);
        cmd.setExecutionExceptionHandler(IdgenCommand::failure);
        return cmd;
    }

    /** {@code idgen} alone: the usage, on standard error, as a usage error. */
    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return EXIT_USAGE;
    }

    private static int usageError(CommandLine.ParameterException e, String[] args) {
        CommandLine cmd = e.getCommandLine();
        cmd.getErr().println(cmd.getCommandSpec().qualifiedName() + ": " + oneLine(e.getMessage())
                + " (see '" + cmd.getCommandSpec().qualifiedName() + " --help')");
        cmd.getErr().flush();
        return EXIT_USAGE;
    }

    private static int failure(Exception e, CommandLine cmd, CommandLine.ParseResult parsed) {
        String name = cmd.getCommandSpec().qualifiedName();
        String message = e instanceof BadInputException || e instanceof IllegalArgumentException
                ? e.getMessage()
                : "internal error, please report it: " + e;
        cmd.getErr().println(name + ": " + oneLine(message));
        cmd.getErr().flush();
        return EXIT_BAD_INPUT;
    }

    /** Messages from deep down may hold line breaks; an error stays one line. */
    static String oneLine(String message) {
        return message == null ? "" : message.strip().replaceAll("\\s*\\R\\s*", "; ");
    }
}
