package dev.idgen.segment;

/**
 * A text read back as a business number ({@link BusinessNumberFormat#parse(String)}) does not have
 * its format's shape: a number typed by a person, taken from a URL or sent by another system. It is
 * the reader's input that is wrong, never the store or the generator, so a web application answers
 * it as a bad request (HTTP 400; the Spring Boot starter does so). The message quotes the text and
 * names the pattern and what is wrong.
 */
public final class MalformedBusinessNumberException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    /** The text that was read. */
    private final String text;
    /** The pattern it was read with. */
    private final String pattern;

    /**
     * @param text the text that was read
     * @param pattern the pattern it was read with
     * @param message what is wrong, quoting the text and naming the pattern
     */
    public MalformedBusinessNumberException(String text, String pattern, String message) {
        super(message);
        this.text = text;
        this.pattern = pattern;
    }

    /** {@return the text that was read} */
    public String text() {
        return text;
    }

    /** {@return the pattern it was read with} */
    public String pattern() {
        return pattern;
    }
}
