package dev.idgen.index.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The bar runs on a clock the test moves: no real time passes. */
class ProgressTest {

    @Test
    void nothingInTheFirstSecondThenABarThenErased() {
        AtomicLong nanos = new AtomicLong(5_000);
        StringWriter err = new StringWriter();
        Progress p = new Progress(new PrintWriter(err), true, 1000, nanos::get);
        nanos.addAndGet(Progress.DELAY_NANOS - 1);
        p.update(100, "UUIDv4");
        assertEquals("", err.toString(), "a run under a second shows nothing");
        nanos.addAndGet(1);
        p.update(500, "UUIDv4");
        assertTrue(err.toString().startsWith("\r[###############...............]  50% UUIDv4"), err.toString());
        int drawn = err.toString().length();
        nanos.addAndGet(Progress.REDRAW_NANOS - 1);
        p.update(600, "UUIDv4");
        assertEquals(drawn, err.toString().length(), "redrawn at most every 100 ms");
        nanos.addAndGet(1);
        p.update(600, "UUIDv4");
        assertTrue(err.toString().length() > drawn);
        p.finish();
        assertTrue(err.toString().endsWith("\r"), "the bar is erased");
        assertFalse(err.toString().contains("\n"), "never a new line");
    }

    @Test
    void neverDrawnWhenStderrIsNotATerminal() {
        AtomicLong nanos = new AtomicLong();
        StringWriter err = new StringWriter();
        Progress p = new Progress(new PrintWriter(err), false, 10, nanos::get);
        nanos.addAndGet(10 * Progress.DELAY_NANOS);
        p.update(5, "x");
        p.finish();
        assertEquals("", err.toString());
        assertFalse(p.wasDrawn());
    }
}
