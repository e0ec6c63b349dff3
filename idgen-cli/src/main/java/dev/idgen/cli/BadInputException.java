package dev.idgen.cli;

/**
 * Input the command cannot use (an ID that is not one, a file it cannot write): reported as one
 * line on standard error, exit code {@value IdgenCommand#EXIT_BAD_INPUT}.
 */
public final class BadInputException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * @param message what was given and what was expected, in one line
     */
    public BadInputException(String message) {
        super(message);
    }
}
