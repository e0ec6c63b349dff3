package dev.idgen.spring.boot;

import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code idgen.business-number.<name>.*}: one business number generator per name, writing numbers
 * such as {@code INV-20261203-000042} from counters its store keeps per date group (see
 * {@code docs/segments.md}).
 *
 * <pre>
 * idgen.business-number.invoice.pattern=INV-yyyyMMdd-NNNNNN
 * idgen.business-number.invoice.step=1
 * </pre>
 */
@ConfigurationProperties("idgen")
public class IdgenBusinessNumberProperties {

    /** The business number generators by name. */
    private final Map<String, Numbers> businessNumber = new LinkedHashMap<>();

    /** Made by Spring. */
    public IdgenBusinessNumberProperties() {
    }

    /** {@return the generators' settings by name} */
    public Map<String, Numbers> getBusinessNumber() {
        return businessNumber;
    }

    /** {@code idgen.business-number.<name>.*}. */
    public static class Numbers extends IdgenSegmentProperties.StoreSettings {
        /** The numbers' shape, e.g. INV-yyyyMMdd-NNNNNN: [PREFIX SEP] yyyyMMdd|yyyyMM|yyyy SEP N... (required). */
        private String pattern;
        /** Where the store's time is read as a date (the date group). */
        private ZoneId zone = ZoneOffset.UTC;
        /** Numbers per grant, 1 to 2^40; above 1 a restart leaves a gap of up to step - 1 numbers. */
        private long step = 1;

        /** Made by Spring. */
        public Numbers() {
        }

        /** {@return the numbers' shape} */
        public String getPattern() {
            return pattern;
        }

        /** @param pattern the numbers' shape */
        public void setPattern(String pattern) {
            this.pattern = pattern;
        }

        /** {@return where the store's time is read as a date} */
        public ZoneId getZone() {
            return zone;
        }

        /** @param zone where the store's time is read as a date */
        public void setZone(ZoneId zone) {
            this.zone = zone;
        }

        /** {@return numbers per grant} */
        public long getStep() {
            return step;
        }

        /** @param step numbers per grant */
        public void setStep(long step) {
            this.step = step;
        }
    }
}
