package dev.idgen.spring.boot;

import dev.idgen.segment.BusinessNumberGenerator;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * The business number generators of {@code idgen.business-number.<name>.*}, by name. Each is also a
 * bean of its own, qualified by its name:
 *
 * <pre>{@code
 * BusinessNumbersService(@Qualifier("invoice") BusinessNumberGenerator invoices) { ... }
 * String number = invoices.next();   // INV-20261203-000042
 * }</pre>
 */
public final class BusinessNumbers {

    private final Map<String, BusinessNumberGenerator> byName;

    BusinessNumbers(Map<String, BusinessNumberGenerator> byName) {
        this.byName = Collections.unmodifiableMap(new TreeMap<>(byName));
    }

    /**
     * @param name a name configured under {@code idgen.business-number}
     * @return its generator
     * @throws IllegalArgumentException naming the configured names if there is no such generator
     */
    public BusinessNumberGenerator get(String name) {
        BusinessNumberGenerator g = byName.get(name);
        if (g == null) {
            throw new IllegalArgumentException("no business numbers '" + name + "'; configured: "
                    + (byName.isEmpty() ? "none" : String.join(", ", byName.keySet()))
                    + " (add them as idgen.business-number." + name + ".pattern=...)");
        }
        return g;
    }

    /** {@return every generator by name, sorted by name} */
    public Map<String, BusinessNumberGenerator> all() {
        return byName;
    }
}
