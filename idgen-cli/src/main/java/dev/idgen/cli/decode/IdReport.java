package dev.idgen.cli.decode;

import dev.idgen.cli.format.Json;
import dev.idgen.cli.format.RelativeTime;
import dev.idgen.cli.format.TextTable;
import dev.idgen.decode.DecodedId;
import dev.idgen.decode.DecodedSnowflake;
import dev.idgen.decode.DecodedUuid;
import dev.idgen.snowflake.SnowflakeId;
import dev.idgen.snowflake.SnowflakeLayout;
import dev.idgen.uuid.UuidInfo;
import dev.idgen.uuid.Uuids;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * What {@code idgen decode} says about one ID: the fields core's {@link dev.idgen.decode.IdDecoder}
 * found, named as the ID's own documentation names them (Discord's worker, process and increment;
 * Instagram's shard; RFC 9562's field names), plus how long ago its time was and, for a Snowflake
 * whose time is implausible, the layouts that would give a plausible one.
 *
 * @param input the ID as given
 * @param fields label and value, in order; values are {@link String}, {@link Long} or {@link Integer}
 * @param warning why the decoded time looks wrong, or null
 * @param suggestions the ID as read by layouts that give a plausible time (Snowflake only)
 * @param now the present the report was made at
 */
public record IdReport(String input, Map<String, Object> fields, String warning, List<SnowflakeId> suggestions,
        Instant now) {

    /**
     * @throws NullPointerException if a component other than {@code warning} is null
     */
    public IdReport {
        Objects.requireNonNull(input, "input");
        Objects.requireNonNull(now, "now");
        fields = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(fields));
        suggestions = List.copyOf(suggestions);
    }

    /**
     * @param decoded what core's decoder made of the input
     * @param now the present, for relative times and the plausibility check
     * @return the report
     */
    public static IdReport of(DecodedId decoded, Instant now) {
        if (decoded instanceof DecodedSnowflake s) {
            return snowflake(s, now);
        }
        return uuid((DecodedUuid) decoded, now);
    }

    private static IdReport snowflake(DecodedSnowflake decoded, Instant now) {
        SnowflakeId id = decoded.id();
        SnowflakeLayout layout = id.layout();
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("kind", "Snowflake");
        f.put("id", Long.toUnsignedString(id.id()));
        f.put("layout", describe(layout));
        f.put("time", id.timestamp().toString());
        f.put("age", RelativeTime.describe(id.timestamp(), now));
        f.put("unix ms", id.timestamp().toEpochMilli());
        f.put("machine", id.machineId());
        String sequence = "sequence";
        switch (layout.name()) {
            case "twitter" -> {
                f.put("datacenter", id.datacenterId());
                f.put("worker", id.workerId());
            }
            case "discord" -> {
                f.put("worker", id.datacenterId());
                f.put("process", id.workerId());
                sequence = "increment";
            }
            case "instagram" -> f.put("shard", id.machineId());
            default -> {
                // other layouts: the machine id alone
            }
        }
        f.put(sequence, id.sequence());
        String warning = null;
        List<SnowflakeId> suggestions = List.of();
        if (!LayoutCheck.plausible(id, now)) {
            warning = "time " + id.timestamp() + " is " + (id.timestamp().isAfter(now) ? "in the future" : "before the epoch")
                    + " (" + RelativeTime.describe(id.timestamp(), now) + "): probably not a " + layout.name() + " ID";
            suggestions = LayoutCheck.plausibleLayouts(id.id(), now, layout);
        }
        return new IdReport(decoded.input(), f, warning, suggestions, now);
    }

    private static IdReport uuid(DecodedUuid decoded, Instant now) {
        UuidInfo info = decoded.info();
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("kind", "UUID");
        f.put("uuid", Uuids.toString(info.uuid()));
        f.put("written as", decoded.form().name().toLowerCase(Locale.ROOT));
        f.put("variant", info.variant().name());
        f.put("version", info.version());
        f.put("type", info.kind());
        info.time().ifPresent(t -> {
            f.put("time", t.toString());
            f.put("age", RelativeTime.describe(t, now));
        });
        for (UuidInfo.Field field : info.fields()) {
            String text = field.toString();
            f.put(field.name(), text.substring(text.indexOf('=') + 1));
        }
        return new IdReport(decoded.input(), f, null, List.of(), now);
    }

    private static String describe(SnowflakeLayout l) {
        String time = l.timestampBits() + " bits of " + (l.tickMillis() == 1 ? "ms" : l.tickMillis() + " ms") + " since " + l.epoch();
        String rest = l.fieldOrder() == SnowflakeLayout.FieldOrder.TIME_MACHINE_SEQUENCE
                ? l.machineBits() + " machine | " + l.sequenceBits() + " sequence"
                : l.sequenceBits() + " sequence | " + l.machineBits() + " machine";
        return l.name() + " (" + time + " | " + rest + ")";
    }

    /** @return the report as an indented two-column table under the input, with any warning after it */
    public String toText() {
        TextTable table = new TextTable("field", "value");
        fields.forEach((k, v) -> table.row(k, String.valueOf(v)));
        StringBuilder out = new StringBuilder(input.strip()).append('\n');
        String rendered = table.render(2);
        out.append(rendered.substring(rendered.indexOf('\n') + 1));   // the header adds nothing here
        if (warning != null) {
            out.append("  warning: ").append(warning).append('\n');
            if (suggestions.isEmpty()) {
                out.append("  no preset layout gives a time between its epoch and now\n");
            } else {
                out.append("  layouts that give a plausible time:\n");
                for (SnowflakeId s : suggestions) {
                    out.append("    --layout ").append(String.format(Locale.ROOT, "%-10s", s.layout().name())).append(s.timestamp())
                            .append(" (").append(RelativeTime.describe(s.timestamp(), now)).append(")\n");
                }
            }
        }
        return out.toString();
    }

    /** @return the report as one JSON object: the fields (keys with spaces joined by underscores), plausibility and suggestions */
    public String toJson() {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("input", input);
        fields.forEach((k, v) -> o.put(k.replace(' ', '_'), v));
        if (fields.get("kind").equals("Snowflake")) {
            o.put("plausible", warning == null);
            if (warning != null) {
                o.put("warning", warning);
                List<Object> list = new ArrayList<>();
                for (SnowflakeId s : suggestions) {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("layout", s.layout().name());
                    m.put("time", s.timestamp().toString());
                    list.add(m);
                }
                o.put("suggestions", list);
            }
        }
        return Json.write(o);
    }
}
