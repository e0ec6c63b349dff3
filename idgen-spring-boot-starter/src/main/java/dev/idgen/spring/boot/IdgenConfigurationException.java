package dev.idgen.spring.boot;

/**
 * The {@code idgen.*} properties do not make a working configuration; the message names the
 * property, its value and what is allowed. Thrown while the application context starts.
 */
public final class IdgenConfigurationException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    /** What to do, for the failure report's Action; null for the general advice. */
    private final String action;

    /**
     * @param message what is wrong and what is allowed
     */
    public IdgenConfigurationException(String message) {
        super(message);
        this.action = null;
    }

    /**
     * @param message what is wrong and what is allowed
     * @param cause the underlying failure
     */
    public IdgenConfigurationException(String message, Throwable cause) {
        super(message, cause);
        this.action = null;
    }

    /**
     * @param message what is wrong
     * @param action what to change, naming the property
     * @param cause the underlying failure
     */
    public IdgenConfigurationException(String message, String action, Throwable cause) {
        super(message, cause);
        this.action = action;
    }

    /** {@return what to change, naming the property; null when the message says it} */
    public String action() {
        return action;
    }
}
