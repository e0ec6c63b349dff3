package dev.idgen.index.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTest {

    @Test
    void objectsKeepOrderAndStringsAreEscaped() {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("input", "a\"b\\c\n\u0001");
        o.put("n", 7L);
        o.put("ok", false);
        o.put("list", List.of(Map.of("k", "v"), 1));
        o.put("none", null);
        assertEquals("{\"input\":\"a\\\"b\\\\c\\n\\u0001\",\"n\":7,\"ok\":false,\"list\":[{\"k\":\"v\"},1],\"none\":null}",
                Json.write(o));
    }

    @Test
    void otherTypesAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> Json.write(new Object()));
    }
}
