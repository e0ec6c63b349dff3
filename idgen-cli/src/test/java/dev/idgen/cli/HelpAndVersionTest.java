package dev.idgen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HelpAndVersionTest {

    @ParameterizedTest
    @ValueSource(strings = {"snowflake", "uuid7", "uuid4", "decode", "index", "demo"})
    void everyCommandHasHelpAndVersion(String command) {
        Cli.Run help = Cli.run(command, "--help");
        assertEquals(0, help.exit());
        assertTrue(help.out().startsWith("Usage: idgen " + command), help.out());
        assertFalse(help.out().contains("\u001b["), "no colours when stdout is not a terminal");
        Cli.Run version = Cli.run(command, "--version");
        assertEquals(0, version.exit());
        assertTrue(version.out().startsWith("idgen " + System.getProperty("idgen.version") + " "), version.out());
    }

    @Test
    void topLevelHelpListsEveryCommand() {
        Cli.Run r = Cli.run("--help");
        assertEquals(0, r.exit());
        for (String c : new String[] {"snowflake", "uuid7", "uuid4", "decode", "index", "demo"}) {
            assertTrue(r.out().contains("\n  " + c + " "), c + " missing:\n" + r.out());
        }
    }

    @Test
    void helpIsInColourOnlyOnATerminal() {
        Cli.Run r = Cli.runAt(dev.idgen.testkit.clock.ManualClock.at(Cli.NOW), "", true, "decode", "--help");
        assertTrue(r.out().contains("\u001b["), r.out());
    }

    @Test
    void noCommandPrintsUsageOnStderrAsAUsageError() {
        Cli.Run r = Cli.run();
        assertEquals(IdgenCommand.EXIT_USAGE, r.exit());
        assertEquals("", r.out());
        assertTrue(r.err().startsWith("Usage: idgen"), r.err());
    }

    @Test
    void unknownCommandOrOptionIsOneLineAndExitTwo() {
        Cli.Run r = Cli.run("frobnicate");
        assertEquals(IdgenCommand.EXIT_USAGE, r.exit());
        assertEquals(1, r.err().split("\n").length, r.err());
        assertTrue(r.err().startsWith("idgen: Unmatched argument at index 0: 'frobnicate'"), r.err());
        Cli.Run o = Cli.run("uuid4", "--bogus");
        assertEquals(IdgenCommand.EXIT_USAGE, o.exit());
        assertEquals("idgen uuid4: Unknown option: '--bogus' (see 'idgen uuid4 --help')\n", o.err());
    }
}
