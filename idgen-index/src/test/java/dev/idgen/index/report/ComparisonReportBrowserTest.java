package dev.idgen.index.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report's page as a browser draws it: headless Chromium takes a screenshot of the page built
 * from {@link ComparisonReportTest#rows()} (a fixed, hand-built set), and the test measures the
 * bars in the picture. Skipped, saying so, only when no Chromium binary is found (Debian:
 * {@code apt-get install chromium}). The page and the picture are kept in
 * {@code target/index-report/}.
 */
class ComparisonReportBrowserTest {

    private static final int WIDTH = 1000;
    private static final int HEIGHT = 1700;

    /** A bar as found in the picture: its left edge, its width and its first row, in pixels. */
    record Bar(int x, int width, int y) {
    }

    @Test
    void chromiumDrawsEveryBarOnTheFixedAxisAtItsFill(@TempDir Path profile) throws Exception {
        Path chromium = chromium();
        Assumptions.assumeTrue(chromium != null, "no Chromium binary (chromium, chromium-browser or google-chrome) on PATH"
                + " or in /usr/bin: the report is not checked in a browser; install the Debian package chromium");
        List<ComparisonReport.Row> rows = ComparisonReportTest.rows();
        Path dir = Path.of("target", "index-report");
        Files.createDirectories(dir);
        Path page = dir.resolve("comparison-report.html");
        Files.writeString(page, ComparisonReport.html("Which key for which engine", rows, ""), StandardCharsets.UTF_8);
        Path png = dir.resolve("comparison-report.png");
        Files.deleteIfExists(png);
        Process p = new ProcessBuilder(chromium.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--no-first-run", "--disable-background-networking", "--hide-scrollbars", "--force-device-scale-factor=1",
                "--user-data-dir=" + profile.toAbsolutePath(), "--window-size=" + WIDTH + "," + HEIGHT,
                "--screenshot=" + png.toAbsolutePath(), page.toAbsolutePath().toUri().toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("chromium.log").toFile()).start();
        boolean done = p.waitFor(120, TimeUnit.SECONDS);
        if (!done) {
            p.destroyForcibly();
        }
        assertTrue(done, "chromium did not finish in 120 s; see " + dir.resolve("chromium.log"));
        assertTrue(Files.exists(png), "no screenshot; chromium said: " + Files.readString(dir.resolve("chromium.log")));
        BufferedImage image = ImageIO.read(png.toFile());
        assertEquals(WIDTH, image.getWidth(), "the window's width at scale 1");

        long ink = 0;
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                if ((image.getRGB(x, y) & 0xFFFFFF) != 0xFFFFFF) {
                    ink++;
                }
            }
        }
        assertTrue(ink > 20_000, "the page is drawn, not blank: " + ink + " pixels not white");

        List<Bar> engine = bars(image, 0x3b6ea5);
        List<Bar> model = bars(image, 0xd08a2c);
        assertEquals(rows.size(), engine.size(), "one engine bar per row: " + engine);
        assertEquals(rows.size(), model.size(), "one model bar per row: " + model);
        int origin = engine.get(0).x();
        for (int i = 0; i < rows.size(); i++) {
            ComparisonReport.Row r = rows.get(i);
            String what = r.engine() + " " + r.key() + " " + r.writers() + " writers";
            // every bar starts on the axis' 0 % and is its fill times the 520-pixel axis long, whatever else is on its chart
            assertEquals(origin, engine.get(i).x(), what);
            assertEquals(origin, model.get(i).x(), what);
            assertEquals(ComparisonReport.BAR_WIDTH * r.engineFill(), engine.get(i).width(), 1.5, what + ": " + engine.get(i));
            assertEquals(ComparisonReport.BAR_WIDTH * r.predictedFill(), model.get(i).width(), 1.5, what + ": " + model.get(i));
            assertTrue(model.get(i).y() > engine.get(i).y(), "the model's bar under the engine's: " + what);
        }
        // widths in proportion across engines: 38 % is 0.38 of the axis on InnoDB's chart too, not stretched
        assertEquals(0.38 / 0.90, engine.get(7).width() / (double) engine.get(0).width(), 0.01);
    }

    /** Runs of one colour at least 20 pixels long and 6 rows high, top to bottom. */
    static List<Bar> bars(BufferedImage image, int rgb) {
        List<Bar> bars = new ArrayList<>();
        Bar open = null;
        int height = 0;
        for (int y = 0; y < image.getHeight(); y++) {
            Bar run = null;
            for (int x = 0; x < image.getWidth() && run == null; x++) {
                if (near(image.getRGB(x, y), rgb)) {
                    int end = x;
                    while (end + 1 < image.getWidth() && near(image.getRGB(end + 1, y), rgb)) {
                        end++;
                    }
                    if (end - x + 1 >= 20) {
                        run = new Bar(x, end - x + 1, y);
                    }
                    x = end;
                }
            }
            if (run != null && open != null && run.x() == open.x() && Math.abs(run.width() - open.width()) <= 1) {
                height++;
                continue;
            }
            if (open != null && height >= 6) {
                bars.add(open);
            }
            open = run;
            height = run == null ? 0 : 1;
        }
        if (open != null && height >= 6) {
            bars.add(open);
        }
        return bars;
    }

    private static boolean near(int argb, int rgb) {
        return Math.abs((argb >> 16 & 0xFF) - (rgb >> 16 & 0xFF)) <= 10 && Math.abs((argb >> 8 & 0xFF) - (rgb >> 8 & 0xFF)) <= 10
                && Math.abs((argb & 0xFF) - (rgb & 0xFF)) <= 10;
    }

    /** The Chromium binary on PATH or in /usr/bin, or null. */
    static Path chromium() {
        List<String> dirs = new ArrayList<>(List.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)));
        dirs.add("/usr/bin");
        for (String name : List.of("chromium", "chromium-browser", "google-chrome")) {
            for (String d : dirs) {
                if (!d.isEmpty() && Files.isExecutable(Path.of(d, name))) {
                    return Path.of(d, name);
                }
            }
        }
        return null;
    }
}
