package dev.idgen.spring.boot.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.jackson.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * {@code idgen.json.large-numbers-as-strings} on Jackson 2: every long outside ±(2^53 − 1) leaves as
 * a string and comes back from a string or a number; off by default.
 */
class LargeNumbersAsStringsTest {

    /** 2^53 − 1, written out: the largest long every double-based parser reads exactly with its neighbours. */
    private static final long SAFE = 9_007_199_254_740_991L;

    record Order(long id, Long parent, long[] lines, int count, @JsonSnowflakeId long small) {
    }

    private final ObjectMapper mapper = JsonMapper.builder().addModule(new LargeNumbersAsStringsModule()).build();

    @Test
    void longsOutsideTheSafeRangeAreStringsAndTheRestStayNumbers() throws Exception {
        Order o = new Order(SAFE + 1, -SAFE - 1, new long[] {SAFE, SAFE + 1, -SAFE, Long.MIN_VALUE}, 7, 5);
        assertThat(mapper.writeValueAsString(o)).isEqualTo("{\"id\":\"9007199254740992\","
                + "\"parent\":\"-9007199254740992\",\"lines\":[9007199254740991,\"9007199254740992\","
                + "-9007199254740991,\"-9223372036854775808\"],\"count\":7,\"small\":\"5\"}");
        assertThat(mapper.writeValueAsString(new Order(SAFE, null, new long[0], 0, 0)))
                .isEqualTo("{\"id\":9007199254740991,\"parent\":null,\"lines\":[],\"count\":0,\"small\":\"0\"}");
    }

    @Test
    void stringsAndNumbersBothComeBack() throws Exception {
        Order o = mapper.readValue("{\"id\":\"9223372036854775807\",\"parent\":9007199254740993,"
                + "\"lines\":[\"-9223372036854775808\",3,\"4\"],\"count\":1,\"small\":\"9\"}", Order.class);
        assertThat(o.id()).isEqualTo(Long.MAX_VALUE);
        assertThat(o.parent()).isEqualTo(9_007_199_254_740_993L);
        assertThat(o.lines()).containsExactly(Long.MIN_VALUE, 3, 4);
        assertThat(o.small()).isEqualTo(9);
        Order back = mapper.readValue(mapper.writeValueAsString(o), Order.class);
        assertThat(back.id()).isEqualTo(o.id());
        assertThat(back.lines()).containsExactly(o.lines());
    }

    @Test
    void textThatIsNotALongIsRefusedNamingIt() {
        assertThatThrownBy(() -> mapper.readValue("{\"id\":\"9223372036854775808\"}", Order.class))
                .hasMessageContaining("9223372036854775808");
        assertThatThrownBy(() -> mapper.readValue("{\"id\":\"12x\"}", Order.class)).hasMessageContaining("12x");
        assertThatThrownBy(() -> mapper.readValue("{\"lines\":[\"1\",\"two\"]}", Order.class))
                .hasMessageContaining("two");
    }

    @Test
    void bootsObjectMapperGetsTheModuleOnlyWhenSwitchedOn() {
        ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(
                AutoConfigurations.of(JacksonAutoConfiguration.class, IdgenJsonAutoConfiguration.class));
        String body = "{\"id\":2128542471985037312,\"parent\":null,\"lines\":[],\"count\":0,\"small\":\"1\"}";
        runner.run(context -> {
            ObjectMapper boot = context.getBean(ObjectMapper.class);
            assertThat(boot.writeValueAsString(boot.readValue(body, Order.class))).isEqualTo(body);
        });
        runner.withPropertyValues("idgen.json.large-numbers-as-strings=true").run(context -> {
            ObjectMapper boot = context.getBean(ObjectMapper.class);
            assertThat(boot.writeValueAsString(boot.readValue(body, Order.class)))
                    .isEqualTo(body.replace("2128542471985037312", "\"2128542471985037312\""));
        });
    }
}
