package dev.idgen.cli;

import dev.idgen.cli.decode.IdReport;
import dev.idgen.decode.DecodedId;
import dev.idgen.decode.IdDecoder;
import dev.idgen.decode.Reading;
import dev.idgen.segment.BusinessNumberFormat;
import dev.idgen.snowflake.SnowflakeLayout;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code idgen decode}: what an ID is and what is inside, through core's {@link IdDecoder}. IDs come
 * from the arguments, or one a line from standard input (blank lines skipped). Every ID that cannot
 * be read gets one line on standard error; the others are still decoded, and the exit code is then
 * {@value IdgenCommand#EXIT_BAD_INPUT}.
 */
@Command(name = "decode", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Say what an ID is and what is inside.",
                "A Snowflake (decimal, or hex as 0x... or 16 hex digits), a UUID of any version (8-4-4-4-12, 32 hex"
                + " digits, {braces} or urn:uuid:), a ULID, KSUID, TSID, MongoDB ObjectId or xid.",
                "A string that fits more than one format gets every reading, the plausible ones first.",
                "With --pattern, business numbers such as INV-20261203-000042 (prefix, date group, counter) instead.",
                "A reading whose time is implausible (more than a day after now) gets a warning and, for a Snowflake,"
                + " the preset layouts that give a plausible time."})
final class DecodeCommand implements Callable<Integer> {

    private final CliContext context;

    @Spec
    private CommandSpec spec;

    @Parameters(paramLabel = "ID", arity = "0..*",
            description = "IDs to decode; none: read them from standard input, one a line.")
    private List<String> ids = new ArrayList<>();

    @Option(names = "--layout", paramLabel = "LAYOUT", defaultValue = "twitter", converter = LayoutConverter.class,
            description = "Layout to read Snowflakes with: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).",
            completionCandidates = LayoutConverter.Names.class)
    private SnowflakeLayout layout;

    @Option(names = "--field-order", paramLabel = "ORDER", converter = FieldOrderConverter.class,
            description = "Order of the fields, high bits first: ${COMPLETION-CANDIDATES} (default: the layout's"
                    + " own). machine-time-sequence puts the machine id on top: read IDs made in that order.",
            completionCandidates = FieldOrderConverter.Names.class)
    private SnowflakeLayout.FieldOrder fieldOrder;

    @Option(names = "--json", description = "One JSON object a line instead of a table.")
    private boolean json;

    @Option(names = "--pattern", paramLabel = "PATTERN",
            description = "Read business numbers of this pattern, e.g. INV-yyyyMMdd-NNNNNN: [PREFIX SEP] date"
                    + " (yyyyMMdd, yyyyMM or yyyy) SEP counter (one N a digit).")
    private String pattern;

    @Option(names = "--zone", paramLabel = "ZONE", defaultValue = "UTC",
            description = "With --pattern: the zone whose midnight starts a date group (default: ${DEFAULT-VALUE}).")
    private ZoneId zone;

    DecodeCommand(CliContext context) {
        this.context = context;
    }

    @Override
    public Integer call() {
        BusinessNumberFormat format = businessFormat();
        SnowflakeLayout layout = FieldOrderConverter.apply(spec, this.layout, fieldOrder);
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (ids.isEmpty() && context.stdinIsTerminal()) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "no ID given; expected IDs as arguments, or one a line piped to standard input");
        }
        List<String> inputs = ids.isEmpty() ? readStdin() : ids;
        Instant now = context.clock().instant();
        int bad = 0;
        boolean first = true;
        for (String input : inputs) {
            List<Reading> readings;
            try {
                readings = format == null ? IdDecoder.readings(input, layout, now) : List.of(business(format, input, now));
            } catch (IllegalArgumentException e) {
                err.println(spec.qualifiedName() + ": " + IdgenCommand.oneLine(e.getMessage()));
                bad++;
                continue;
            }
            IdReport report = new IdReport(input, readings, now);
            if (json) {
                out.println(report.toJson());
            } else {
                if (!first) {
                    out.println();
                }
                out.print(report.toText());
            }
            first = false;
        }
        out.flush();
        err.flush();
        if (inputs.isEmpty()) {
            throw new BadInputException("no ID given; expected IDs as arguments or one a line on standard input");
        }
        return bad == 0 ? IdgenCommand.EXIT_OK : IdgenCommand.EXIT_BAD_INPUT;
    }

    /** The format of {@code --pattern}, or null without it; a usage error for a bad pattern or a Snowflake flag. */
    private BusinessNumberFormat businessFormat() {
        CommandLine.ParseResult parsed = spec.commandLine().getParseResult();
        if (pattern == null) {
            if (parsed.hasMatchedOption("--zone")) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--zone applies to --pattern only");
            }
            return null;
        }
        for (String snowflakeOnly : List.of("--layout", "--field-order")) {
            if (parsed.hasMatchedOption(snowflakeOnly)) {
                throw new CommandLine.ParameterException(spec.commandLine(), snowflakeOnly
                        + " applies to Snowflakes, not to --pattern");
            }
        }
        try {
            return BusinessNumberFormat.builder().pattern(pattern).zone(zone).build();
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--pattern: " + e.getMessage());
        }
    }

    private static Reading business(BusinessNumberFormat format, String input, Instant now) {
        DecodedId id = format.decode(input);
        if (Reading.plausible(id, now)) {
            return new Reading(id, true, "", List.of());
        }
        return new Reading(id, false, "date " + id.time().orElseThrow() + " is in the future", List.of());
    }

    private List<String> readStdin() {
        List<String> lines = new ArrayList<>();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(context.stdin(), StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (!line.isBlank()) {
                    lines.add(line);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read standard input", e);
        }
        return lines;
    }
}
