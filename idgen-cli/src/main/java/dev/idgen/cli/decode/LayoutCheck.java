package dev.idgen.cli.decode;

import dev.idgen.snowflake.SnowflakeId;
import dev.idgen.snowflake.SnowflakeLayout;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Catches the usual mistake with Snowflake IDs, reading one with the wrong layout: the time it gives
 * is then implausible. Plausible here means from the layout's epoch to one day after now (a day of
 * slack for clocks that run ahead). Other layouts are tried through each preset's own
 * {@link SnowflakeLayout#decode(long)}; core has no list of plausible layouts of its own.
 */
public final class LayoutCheck {

    /** How far past "now" an ID's time may be and still count as plausible. */
    public static final Duration FUTURE_SLACK = Duration.ofDays(1);

    private LayoutCheck() {
    }

    /**
     * @param id an ID as some layout read it
     * @param now the present
     * @return whether its time lies from the layout's epoch to {@link #FUTURE_SLACK} after now
     */
    public static boolean plausible(SnowflakeId id, Instant now) {
        Instant t = id.timestamp();
        return !t.isBefore(id.layout().epoch()) && !t.isAfter(now.plus(FUTURE_SLACK));
    }

    /**
     * @param id the ID's bits
     * @param now the present
     * @param except the layout already tried, left out
     * @return the ID as read by every other preset that gives a plausible time, in preset order
     */
    public static List<SnowflakeId> plausibleLayouts(long id, Instant now, SnowflakeLayout except) {
        List<SnowflakeId> out = new ArrayList<>();
        for (SnowflakeLayout layout : SnowflakeLayout.presets()) {
            if (layout.equals(except) || (id < 0 && !layout.usesSignBit())) {
                continue;
            }
            SnowflakeId read = layout.decode(id);
            if (plausible(read, now)) {
                out.add(read);
            }
        }
        return out;
    }
}
