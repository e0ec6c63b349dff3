package dev.idgen.decode;

import dev.idgen.snowflake.SnowflakeLayout;
import dev.idgen.text.Quote;
import dev.idgen.uuid.Uuids;
import java.util.UUID;

/** A UUID in any of its common text forms ({@link UuidForm}). */
final class UuidText implements TextFormat {

    static final UuidText INSTANCE = new UuidText();

    private static final String URN_PREFIX = "urn:uuid:";
    private static final int CANONICAL_LENGTH = 36;
    private static final int HEX_LENGTH = 32;

    private UuidText() {
    }

    @Override
    public String shape() {
        return "a UUID (8-4-4-4-12 hex digits, 32 hex digits, {braces} or urn:uuid:)";
    }

    @Override
    public boolean fits(String s) {
        return s.length() == CANONICAL_LENGTH || s.length() == HEX_LENGTH || isUrn(s) || isBraced(s);
    }

    private static boolean isUrn(String s) {
        return s.regionMatches(true, 0, URN_PREFIX, 0, URN_PREFIX.length());
    }

    private static boolean isBraced(String s) {
        return s.length() > 1 && (s.charAt(0) == '{' || s.charAt(s.length() - 1) == '}');
    }

    @Override
    public DecodedId read(String input, String s, SnowflakeLayout layout) {
        UuidForm form;
        String body;
        if (isUrn(s)) {
            form = UuidForm.URN;
            body = s.substring(URN_PREFIX.length());
        } else if (isBraced(s)) {
            if (s.charAt(0) != '{' || s.charAt(s.length() - 1) != '}') {
                throw new IllegalArgumentException("unbalanced braces");
            }
            form = UuidForm.BRACED;
            body = s.substring(1, s.length() - 1);
        } else {
            form = s.length() == HEX_LENGTH ? UuidForm.HEX : UuidForm.CANONICAL;
            body = s;
        }
        boolean hex = body.length() == HEX_LENGTH && form != UuidForm.URN;
        if (!hex && body.length() != CANONICAL_LENGTH) {
            throw new IllegalArgumentException(body.length() + " characters " + (form == UuidForm.URN ? "after urn:uuid:"
                    : form == UuidForm.BRACED ? "in braces" : "") + "; expected 36 (8-4-4-4-12)"
                    + (form == UuidForm.URN ? "" : " or 32"));
        }
        return new DecodedUuid(input, form, Uuids.decode(parse(body, hex)));
    }

    /** Parses with core's strict codecs and keeps only the problem from their message. */
    private static UUID parse(String body, boolean hex) {
        try {
            return hex ? Uuids.parseHex(body) : Uuids.parse(body);
        } catch (IllegalArgumentException e) {
            String message = e.getMessage();
            String prefix = "not a UUID: " + Quote.of(body) + " (";
            int end = message.indexOf("); expected");
            throw new IllegalArgumentException(message.startsWith(prefix) && end > prefix.length()
                    ? message.substring(prefix.length(), end) : message, e);
        }
    }
}
