package dev.idgen.spring.boot;

/**
 * Applies one {@code idgen.*} property to a builder; a value the builder refuses stops start-up
 * through {@link IdgenFailureAnalyzer}, naming the property, the value, what is allowed (the
 * builder's message) and, as the Action, the property to set.
 */
final class Setting {

    private Setting() {
    }

    /**
     * @param prefix the properties' prefix, e.g. {@code idgen.segment.orders}
     * @param property the property after the prefix, e.g. {@code .step}; empty for the name itself
     * @param value the value set
     * @param apply hands the value to the builder
     * @throws IdgenConfigurationException if the builder refuses the value
     */
    static void apply(String prefix, String property, Object value, Runnable apply) {
        try {
            apply.run();
        } catch (IllegalArgumentException | NullPointerException e) {
            String what = property.isEmpty() ? "the name '" + value + "' in " + prefix + ".*" : prefix + property + "="
                    + value;
            String action = property.isEmpty() ? "Rename " + prefix + ".* to a name the message above allows."
                    : "Set " + prefix + property + " to a value in the range the message above names.";
            throw new IdgenConfigurationException(what + ": " + e.getMessage(), action, e);
        }
    }
}
