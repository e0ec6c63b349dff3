package dev.idgen.decode;

import java.util.Objects;

/**
 * One named field of a decoded ID.
 *
 * @param name the field's name as the format's documentation uses it ({@code worker},
 *     {@code increment}, {@code unix_ts_ms}, {@code randomness})
 * @param value the value as text: a decimal number, {@code 0x}-prefixed hex, or words
 * @param numeric whether {@code value} is an unsigned decimal number (a count or an index, which a
 *     JSON writer may write as a number)
 * @param note what the value means or how sure it is, or empty
 */
public record IdField(String name, String value, boolean numeric, String note) {

    /**
     * @param name the field's name
     * @param value the value as text
     * @param numeric whether {@code value} is an unsigned decimal number
     * @param note what the value means, or empty
     * @throws NullPointerException if any component is null
     */
    public IdField {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(note, "note");
    }

    /**
     * @param name the field's name
     * @param value a value read unsigned
     * @return a numeric field without a note
     */
    public static IdField number(String name, long value) {
        return new IdField(name, Long.toUnsignedString(value), true, "");
    }

    /**
     * @param name the field's name
     * @param value a value read unsigned
     * @param note what the value means
     * @return a numeric field
     */
    public static IdField number(String name, long value, String note) {
        return new IdField(name, Long.toUnsignedString(value), true, note);
    }

    /**
     * @param name the field's name
     * @param bits the field's width, for zero padding
     * @param value its bits, right-aligned
     * @return a field whose value is {@code 0x} and lower-case hex digits, padded to the width
     */
    public static IdField hex(String name, int bits, long value) {
        String hex = Long.toHexString(value);
        int digits = (bits + 3) / 4;
        return new IdField(name, "0x" + "0".repeat(Math.max(0, digits - hex.length())) + hex, false, "");
    }

    /**
     * @param name the field's name
     * @param bytes the field's bytes, most significant first
     * @param from index of the first byte
     * @param to index after the last byte
     * @return a field whose value is {@code 0x} and two lower-case hex digits per byte
     */
    public static IdField hex(String name, byte[] bytes, int from, int to) {
        StringBuilder out = new StringBuilder("0x");
        for (int i = from; i < to; i++) {
            out.append(Character.forDigit(bytes[i] >> 4 & 0xF, 16)).append(Character.forDigit(bytes[i] & 0xF, 16));
        }
        return new IdField(name, out.toString(), false, "");
    }

    /**
     * @param name the field's name
     * @param value the value in words
     * @return a text field without a note
     */
    public static IdField text(String name, String value) {
        return new IdField(name, value, false, "");
    }

    /**
     * @param note what the value means
     * @return this field with that note
     */
    public IdField withNote(String note) {
        return new IdField(name, value, numeric, note);
    }

    /** {@return {@code name=value}, and the note in parentheses if there is one} */
    @Override
    public String toString() {
        return name + "=" + value + (note.isEmpty() ? "" : " (" + note + ")");
    }
}
