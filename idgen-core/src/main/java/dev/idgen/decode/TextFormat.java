package dev.idgen.decode;

import dev.idgen.snowflake.SnowflakeLayout;

/**
 * One format {@link IdDecoder} recognises by shape. A new format is one implementation of this,
 * listed in {@link IdDecoder}; nothing that shows decoded IDs changes.
 */
interface TextFormat {

    /** {@return what the format looks like, for messages: {@code "a ULID (26 Crockford base32 characters)"}} */
    String shape();

    /**
     * Whether the string has this format's outward shape (its length, or its prefix), so that a
     * failure to read it is worth reporting.
     *
     * @param s the trimmed input
     * @return whether to try {@link #read}
     */
    boolean fits(String s);

    /**
     * Reads a string that {@link #fits fits}.
     *
     * @param input the input as given
     * @param s the trimmed input
     * @param layout the layout to read a Snowflake with (other formats ignore it)
     * @return the decoded ID
     * @throws IllegalArgumentException whose message says, in a few words without quoting the input,
     *     what is wrong
     */
    DecodedId read(String input, String s, SnowflakeLayout layout);

    /**
     * The index of the first character of {@code s} that is not an ASCII hex digit, or -1.
     *
     * @param s a string
     * @param from where to start
     * @return an index, or -1
     */
    static int firstNonHex(String s, int from) {
        for (int i = from; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F')) {
                return i;
            }
        }
        return -1;
    }
}
