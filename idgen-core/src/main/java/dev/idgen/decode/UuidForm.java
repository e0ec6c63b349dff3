package dev.idgen.decode;

/** The text form a UUID was written in, as {@link IdDecoder} recognised it. */
public enum UuidForm {
    /** {@code 017f22e2-79b0-7cc3-98c4-dc0c0c07398f}, the RFC 9562 form, any case. */
    CANONICAL,
    /** {@code 017f22e279b07cc398c4dc0c0c07398f}: 32 hex digits without hyphens. */
    HEX,
    /** {@code {017f22e2-79b0-7cc3-98c4-dc0c0c07398f}}: either of the above in braces, as Windows writes GUIDs. */
    BRACED,
    /** {@code urn:uuid:017f22e2-79b0-7cc3-98c4-dc0c0c07398f}, the URN of RFC 9562 §4 (prefix in any case). */
    URN
}
