package dev.idgen.cli.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.decode.DecodedId;
import dev.idgen.decode.IdField;
import dev.idgen.decode.Reading;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The report knows no format: a kind of ID it has never seen prints through the same loop. */
class IdReportTest {

    private static final Instant NOW = Instant.parse("2026-12-03T06:00:00Z");

    /** A kind core does not have, standing in for the next format someone adds. */
    record FutureId(String input) implements DecodedId {
        @Override
        public String kind() {
            return "FutureId";
        }

        @Override
        public String readAs() {
            return "base64url";
        }

        @Override
        public Optional<Instant> time() {
            return Optional.of(Instant.parse("2026-12-01T06:00:00Z"));
        }

        @Override
        public List<IdField> fields() {
            return List.of(IdField.text("futureid", input), IdField.number("shard", 12, "of 64"),
                    IdField.hex("entropy", 16, 0xbeef));
        }
    }

    @Test
    void anUnknownKindIsPrintedFieldByField() {
        IdReport report = new IdReport("AbC", List.of(new Reading(new FutureId("AbC"), true, "", List.of())), NOW);
        assertEquals("""
                AbC
                  kind      FutureId
                  read as   base64url
                  time      2026-12-01T06:00:00Z
                  age       2 days ago
                  unix ms   1796104800000
                  futureid  AbC
                  shard     12 (of 64)
                  entropy   0xbeef
                """, report.toText());
        assertEquals("{\"input\":\"AbC\",\"kind\":\"FutureId\",\"read_as\":\"base64url\",\"time\":\"2026-12-01T06:00:00Z\","
                + "\"age\":\"2 days ago\",\"unix_ms\":1796104800000,\"futureid\":\"AbC\",\"shard\":12,\"entropy\":\"0xbeef\","
                + "\"plausible\":true}", report.toJson());
    }

    @Test
    void anImplausibleReadingOfAnUnknownKindShowsItsWarningAndAlternatives() {
        Reading r = new Reading(new FutureId("AbC"), false, "time is odd", List.of(new FutureId("alt")));
        String text = new IdReport("AbC", List.of(r), NOW).toText();
        assertTrue(text.contains("  warning: time is odd\n"), text);
        assertTrue(text.contains("    FutureId (base64url)  2026-12-01T06:00:00Z (2 days ago)\n"), text);
    }
}
