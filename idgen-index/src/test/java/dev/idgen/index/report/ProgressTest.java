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
    void nothingInTheFirstSecondThenABarWithTheTimeLeftThenErased() {
        AtomicLong nanos = new AtomicLong(5_000);
        StringWriter err = new StringWriter();
        Progress p = new Progress(new PrintWriter(err), true, 1000, nanos::get);
        nanos.addAndGet(Progress.DELAY_NANOS - 1);
        p.update(100, "UUIDv4");
        assertEquals("", err.toString(), "a run under a second shows nothing");
        nanos.addAndGet(1);
        p.update(500, "UUIDv4");
        // half done after one second: one second left
        assertTrue(err.toString().startsWith("\r[###############...............]  50% 1s        UUIDv4"), err.toString());
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
    void withoutATerminalPlainLinesEveryTenSecondsAndNoCarriageReturn() {
        AtomicLong nanos = new AtomicLong();
        StringWriter err = new StringWriter();
        Progress p = new Progress(new PrintWriter(err), false, 1000, nanos::get);
        nanos.addAndGet(Progress.PLAIN_EVERY_NANOS - 1);
        p.update(5, "x");
        assertEquals("", err.toString(), "a run under ten seconds writes nothing");
        assertFalse(p.wasDrawn());
        nanos.addAndGet(1);
        p.update(250, "InnoDB UUIDv4");
        // a quarter in ten seconds: thirty seconds left
        assertEquals("progress 25 %, about 30s left: InnoDB UUIDv4" + System.lineSeparator(), err.toString());
        nanos.addAndGet(Progress.PLAIN_EVERY_NANOS - 1);
        p.update(400, "InnoDB UUIDv4");
        assertEquals(1, err.toString().lines().count(), "at most one line every ten seconds");
        nanos.addAndGet(1);
        p.update(500, "InnoDB UUIDv4");
        assertEquals(2, err.toString().lines().count());
        assertTrue(err.toString().endsWith("progress 50 %, about 20s left: InnoDB UUIDv4" + System.lineSeparator()), err.toString());
        p.finish();
        assertFalse(err.toString().contains("\r"), "no carriage return off a terminal");
        assertTrue(p.wasDrawn());
    }

    @Test
    void timeLeftIsThePaceSoFarInSecondsMinutesOrHours() {
        assertEquals("?", Progress.timeLeft(5_000_000_000L, 0, 100), "nothing done yet: unknown");
        assertEquals("0s", Progress.timeLeft(5_000_000_000L, 100, 100));
        assertEquals("45s", Progress.timeLeft(15_000_000_000L, 25, 100));
        assertEquals("3m05s", Progress.timeLeft(185_000_000_000L, 50, 100));
        assertEquals("2h10m", Progress.timeLeft(7_800_000_000_000L, 50, 100));
        // ten hours in, one row of fifty million done: no overflow
        assertEquals("499999990h00m", Progress.timeLeft(36_000_000_000_000L, 1, 50_000_000));
    }
}
