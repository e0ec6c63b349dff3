package dev.idgen.spring.boot.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import org.junit.jupiter.api.Test;

/** {@code @JsonSnowflakeId} on Jackson 2, as Spring Boot 3 applications have it. */
class JsonSnowflakeIdTest {

    record View(@JsonSnowflakeId long id, @JsonSnowflakeId Long parent, long plain) {
    }

    private final ObjectMapper mapper = JsonMapper.builder().build();

    @Test
    void anIdAbove2To53LeavesAsAStringAndComesBackUnchanged() throws Exception {
        long big = (1L << 53) + 1; // 9007199254740993: the first long a double cannot hold
        assertThat((double) big).isEqualTo((double) (big - 1)); // doubles lose it
        long snowflake = 1_956_123_456_789_012_345L;
        String json = mapper.writeValueAsString(new View(big, snowflake, 5));
        assertThat(json).isEqualTo("{\"id\":\"9007199254740993\",\"parent\":\"1956123456789012345\",\"plain\":5}");
        View back = mapper.readValue(json, View.class);
        assertThat(back.id()).isEqualTo(big);
        assertThat(back.parent()).isEqualTo(snowflake);
    }

    @Test
    void numbersAreAcceptedOnTheWayIn() throws Exception {
        View v = mapper.readValue("{\"id\":9007199254740993,\"parent\":9223372036854775807,\"plain\":1}", View.class);
        assertThat(v.id()).isEqualTo(9_007_199_254_740_993L);
        assertThat(v.parent()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void nullStaysNull() throws Exception {
        String json = mapper.writeValueAsString(new View(1, null, 0));
        assertThat(json).contains("\"parent\":null");
        assertThat(mapper.readValue(json, View.class).parent()).isNull();
    }

    @Test
    void fractionsExponentsOverflowAndTextAreRefused() {
        assertThatThrownBy(() -> mapper.readValue("{\"id\":\"12.5\"}", View.class))
                .isInstanceOf(InvalidFormatException.class).hasMessageContaining("12.5");
        assertThatThrownBy(() -> mapper.readValue("{\"id\":\"1e3\"}", View.class))
                .isInstanceOf(InvalidFormatException.class).hasMessageContaining("1e3");
        assertThatThrownBy(() -> mapper.readValue("{\"id\":\"9223372036854775808\"}", View.class))
                .isInstanceOf(InvalidFormatException.class).hasMessageContaining("9223372036854775808");
        assertThatThrownBy(() -> mapper.readValue("{\"id\":9223372036854775808}", View.class))
                .hasMessageContaining("9223372036854775808");
        assertThatThrownBy(() -> mapper.readValue("{\"id\":12.5}", View.class))
                .hasMessageContaining("Long");
        assertThatThrownBy(() -> mapper.readValue("{\"id\":\"x1\"}", View.class))
                .isInstanceOf(InvalidFormatException.class).hasMessageContaining("x1");
    }
}
