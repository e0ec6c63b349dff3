package dev.idgen.spring.boot;

/**
 * The {@code idgen.*} properties do not make a working configuration; the message names the
 * property, its value and what is allowed. Thrown while the application context starts.
 */
public final class IdgenConfigurationException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    /**
     * @param message what is wrong and what is allowed
     */
    public IdgenConfigurationException(String message) {
        super(message);
    }

    /**
     * @param message what is wrong and what is allowed
     * @param cause the underlying failure
     */
    public IdgenConfigurationException(String message, Throwable cause) {
        super(message, cause);
    }
}
