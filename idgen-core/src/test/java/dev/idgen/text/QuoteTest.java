package dev.idgen.text;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class QuoteTest {

    @Test
    void terminalEscapesAndLineBreaksCannotReachTheTerminal() {
        // ESC [ 2 J clears a terminal; a raw echo of it would act, not show
        assertEquals("'\\u001b[2Jid\\u000d\\u000a'", Quote.of("\u001b[2Jid\r\n"));
        assertEquals("'it\\u0027s a \\u005c'", Quote.of("it's a \\"));
        assertEquals("'caf\\u00e9 \\u0661'", Quote.of("café ١"));
        assertEquals("'\\u0007'", Quote.of('\u0007'));
    }

    @Test
    void longTextIsCut() {
        assertEquals("'" + "x".repeat(60) + "...'", Quote.of("x".repeat(61)));
        assertEquals("'" + "x".repeat(60) + "'", Quote.of("x".repeat(60)));
        assertEquals("''", Quote.of(""));
    }
}
