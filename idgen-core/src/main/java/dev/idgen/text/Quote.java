package dev.idgen.text;

/**
 * How an error message shows the text it refused: in single quotes, cut after 60 characters, and
 * with every character that could do harm on a terminal or in a log line written as {@code \\uXXXX}
 * (control characters such as ESC, CR and LF, anything outside printable ASCII, the quote and the
 * backslash themselves). A pasted ID with a stray escape sequence or newline thus stays one readable
 * line and cannot recolour or rewrite the terminal it is printed on.
 */
public final class Quote {

    /** Characters shown before the quote is cut. */
    public static final int LONGEST = 60;

    private Quote() {
    }

    /**
     * @param text the text as given (may be null)
     * @return e.g. {@code 'abc'}, {@code 'it\u0027s\u000a'}, or the first 60 characters and {@code ...'}
     */
    public static String of(CharSequence text) {
        if (text == null) {
            return "null";
        }
        StringBuilder out = new StringBuilder(Math.min(text.length(), LONGEST) + 8).append('\'');
        int shown = Math.min(text.length(), LONGEST);
        for (int i = 0; i < shown; i++) {
            appendChar(text.charAt(i), out);
        }
        if (shown < text.length()) {
            out.append("...");
        }
        return out.append('\'').toString();
    }

    /**
     * One character for a message: {@code 'x'} when printable ASCII, else {@code '\\uXXXX'}.
     *
     * @param c the character
     * @return it in single quotes, escaped as {@link #of(CharSequence)} does
     */
    public static String of(char c) {
        StringBuilder out = new StringBuilder("'");
        appendChar(c, out);
        return out.append('\'').toString();
    }

    private static void appendChar(char c, StringBuilder out) {
        if (c < 0x20 || c > 0x7E || c == '\'' || c == '\\') {
            out.append("\\u");
            String hex = Integer.toHexString(c);
            out.append("0".repeat(4 - hex.length())).append(hex);
        } else {
            out.append(c);
        }
    }
}
