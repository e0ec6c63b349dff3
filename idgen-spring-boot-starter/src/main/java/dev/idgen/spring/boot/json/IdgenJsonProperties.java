package dev.idgen.spring.boot.json;

import org.springframework.boot.context.properties.ConfigurationProperties;

/** {@code idgen.json.*}: how the application's JSON mapper writes large {@code long} values. */
@ConfigurationProperties("idgen.json")
public class IdgenJsonProperties {

    /**
     * Write every long, Long and long[] element outside ±(2^53 − 1) as a JSON string, and read
     * strings of digits back into them, so a client that reads numbers as doubles (JavaScript)
     * cannot round a Snowflake id. Off by default: it changes the JSON of existing APIs (such values
     * were numbers), which their clients must be ready for.
     */
    private boolean largeNumbersAsStrings;

    /** Made by Spring. */
    public IdgenJsonProperties() {
    }

    /** {@return whether large longs are written as strings} */
    public boolean isLargeNumbersAsStrings() {
        return largeNumbersAsStrings;
    }

    /** @param largeNumbersAsStrings whether large longs are written as strings */
    public void setLargeNumbersAsStrings(boolean largeNumbersAsStrings) {
        this.largeNumbersAsStrings = largeNumbersAsStrings;
    }
}
