package dev.idgen.cli.decode;

import dev.idgen.index.report.Json;
import dev.idgen.cli.format.RelativeTime;
import dev.idgen.index.report.TextTable;
import dev.idgen.decode.DecodedId;
import dev.idgen.decode.IdField;
import dev.idgen.decode.Reading;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What {@code idgen decode} prints about one string: every reading core's
 * {@link dev.idgen.decode.IdDecoder} found, each as its kind, how it was read, its time (with how
 * long ago that was) and its named fields, then, for a reading whose time is implausible, why and
 * which other readings give a plausible one.
 *
 * <p>One loop over {@link DecodedId#fields()} for every kind of ID: nothing here knows a format or a
 * layout, so a new format or preset in core shows up here unchanged.
 *
 * @param input the ID as given
 * @param readings the readings, plausible first, as core ordered them
 * @param now the present the report was made at
 */
public record IdReport(String input, List<Reading> readings, Instant now) {

    /**
     * @param input the ID as given
     * @param readings one or more readings (copied)
     * @param now the present
     * @throws NullPointerException if a component is null
     * @throws IllegalArgumentException if there is no reading
     */
    public IdReport {
        Objects.requireNonNull(input, "input");
        Objects.requireNonNull(now, "now");
        readings = List.copyOf(readings);
        if (readings.isEmpty()) {
            throw new IllegalArgumentException("a report needs at least one reading of '" + input + "'");
        }
    }

    /**
     * @return the input, then for each reading an indented two-column table (a heading line first
     *     when there is more than one reading), with any warning and plausible alternatives after it
     */
    public String toText() {
        StringBuilder out = new StringBuilder(input.strip()).append('\n');
        for (int i = 0; i < readings.size(); i++) {
            Reading r = readings.get(i);
            if (readings.size() > 1) {
                out.append("  reading ").append(i + 1).append(" of ").append(readings.size()).append(": ")
                        .append(r.id().kind()).append(" (").append(r.id().readAs()).append("), ")
                        .append(r.plausible() ? "plausible" : "not plausible").append('\n');
            }
            TextTable table = new TextTable("field", "value");
            rows(r.id()).forEach((k, v) -> table.row(k, v));
            String rendered = table.render(2);
            out.append(rendered.substring(rendered.indexOf('\n') + 1));   // the header adds nothing here
            if (!r.plausible()) {
                out.append("  warning: ").append(r.warning()).append('\n');
                if (r.alternatives().isEmpty()) {
                    out.append("  no other reading gives a time between its epoch and now\n");
                } else {
                    out.append("  readings that give a plausible time:\n");
                    TextTable alternatives = new TextTable("reading", "time");
                    for (DecodedId alt : r.alternatives()) {
                        Instant t = alt.time().orElseThrow();
                        alternatives.row(alt.kind() + " (" + alt.readAs() + ")",
                                t + " (" + RelativeTime.describe(t, now) + ")");
                    }
                    String listed = alternatives.render(4);
                    out.append(listed.substring(listed.indexOf('\n') + 1));
                }
            }
        }
        return out.toString();
    }

    /** Label and text of every row of one reading, in order: kind, how read, time, age, the fields. */
    private Map<String, String> rows(DecodedId id) {
        Map<String, String> rows = new LinkedHashMap<>();
        rows.put("kind", id.kind());
        rows.put("read as", id.readAs());
        id.time().ifPresent(t -> {
            rows.put("time", t.toString());
            rows.put("age", RelativeTime.describe(t, now));
            rows.put("unix ms", Long.toString(t.toEpochMilli()));
        });
        for (IdField f : id.fields()) {
            rows.put(f.name(), f.note().isEmpty() ? f.value() : f.value() + " (" + f.note() + ")");
        }
        return rows;
    }

    /**
     * @return one JSON object: the input and the most plausible reading's kind, time, age and fields
     *     (numbers as JSON numbers, keys with spaces joined by underscores), whether it is plausible
     *     (with the warning and plausible alternatives when not), and any other readings as
     *     {@code other_readings}, objects of the same shape
     */
    public String toJson() {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("input", input);
        o.putAll(object(readings.get(0)));
        if (readings.size() > 1) {
            List<Object> others = new ArrayList<>();
            for (Reading r : readings.subList(1, readings.size())) {
                others.add(object(r));
            }
            o.put("other_readings", others);
        }
        return Json.write(o);
    }

    private Map<String, Object> object(Reading r) {
        Map<String, Object> o = new LinkedHashMap<>();
        DecodedId id = r.id();
        o.put("kind", id.kind());
        o.put("read_as", id.readAs());
        id.time().ifPresent(t -> {
            o.put("time", t.toString());
            o.put("age", RelativeTime.describe(t, now));
            o.put("unix_ms", t.toEpochMilli());
        });
        for (IdField f : id.fields()) {
            o.put(f.name().replace(' ', '_'), f.numeric() ? new BigInteger(f.value()) : f.value());
        }
        o.put("plausible", r.plausible());
        if (!r.plausible()) {
            o.put("warning", r.warning());
            List<Object> alternatives = new ArrayList<>();
            for (DecodedId alt : r.alternatives()) {
                Map<String, Object> a = new LinkedHashMap<>();
                a.put("kind", alt.kind());
                a.put("read_as", alt.readAs());
                a.put("time", alt.time().map(Instant::toString).orElse(null));
                alternatives.add(a);
            }
            o.put("alternatives", alternatives);
        }
        return o;
    }
}
