package dev.idgen.spring.boot.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.exc.InvalidFormatException;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.json.JsonMapper;

class LargeNumbersAsStringsModuleTest {

    /** Plain fields, no annotation: what an application forgets to mark. */
    record Order(long id, Long parent, String name) {
    }

    record Batch(long[] ids, List<Long> more) {
    }

    record Marked(@JsonSnowflakeId long id, long other) {
    }

    /** The record of docs/spring-boot.md, "Every large long". */
    record InvoiceView(long id, Long customerId, List<Long> lineIds, int lines) {}

    private final JsonMapper mapper = JsonMapper.builder().addModule(new LargeNumbersAsStringsModule()).build();

    @Test
    void theLimitIs2To53Minus1() {
        assertThat(LargeNumbersAsStringsModule.MAX_SAFE_INTEGER).isEqualTo(9_007_199_254_740_991L);
        // what the switch is for: 2^53 + 1 as a double is another number
        assertThat((long) (double) 9_007_199_254_740_993L).isNotEqualTo(9_007_199_254_740_993L);
    }

    @Test
    void plainLongsAtTheBoundsLeaveAsNumbersInsideAndStringsOutside() {
        assertThat(mapper.writeValueAsString(new Order(9_007_199_254_740_991L, -9_007_199_254_740_991L, "a")))
                .isEqualTo("{\"id\":9007199254740991,\"parent\":-9007199254740991,\"name\":\"a\"}");
        assertThat(mapper.writeValueAsString(new Order(9_007_199_254_740_992L, -9_007_199_254_740_992L, "b")))
                .isEqualTo("{\"id\":\"9007199254740992\",\"parent\":\"-9007199254740992\",\"name\":\"b\"}");
        assertThat(mapper.writeValueAsString(new Order(Long.MAX_VALUE, Long.MIN_VALUE, "c")))
                .isEqualTo("{\"id\":\"9223372036854775807\",\"parent\":\"-9223372036854775808\",\"name\":\"c\"}");
        assertThat(mapper.writeValueAsString(new Order(0, null, null)))
                .isEqualTo("{\"id\":0,\"parent\":null,\"name\":null}");
        // the id the issue reports: a browser read 2128542471985037312 as ...7300
        assertThat(mapper.writeValueAsString(2_128_542_471_985_037_312L)).isEqualTo("\"2128542471985037312\"");
    }

    @Test
    void theDocsExampleIsWrittenAsTheDocsSay() {
        assertThat(mapper.writeValueAsString(new InvoiceView(2128542471985037312L, 7L, List.of(9007199254740992L), 1)))
                .isEqualTo("{\"id\":\"2128542471985037312\",\"customerId\":7,\"lineIds\":[\"9007199254740992\"],"
                        + "\"lines\":1}");
    }

    @Test
    void withoutTheModuleTheSameRecordSendsANumber() {
        assertThat(JsonMapper.builder().build().writeValueAsString(new Order(9_007_199_254_740_992L, null, "b")))
                .isEqualTo("{\"id\":9007199254740992,\"parent\":null,\"name\":\"b\"}");
    }

    @Test
    void everyBoundRoundTripsUnchanged() {
        long[] values = {9_007_199_254_740_991L, 9_007_199_254_740_992L, -9_007_199_254_740_991L,
                -9_007_199_254_740_992L, Long.MAX_VALUE, Long.MIN_VALUE, 0, 1_956_123_456_789_012_345L};
        for (long v : values) {
            Order back = mapper.readValue(mapper.writeValueAsString(new Order(v, v, "x")), Order.class);
            assertThat(back.id()).as("long %d", v).isEqualTo(v);
            assertThat(back.parent()).as("Long %d", v).isEqualTo(v);
        }
    }

    @Test
    void longArraysAndListsAreCoveredElementByElement() {
        Batch batch = new Batch(new long[] {1, 9_007_199_254_740_992L, -9_007_199_254_740_991L},
                List.of(9_007_199_254_740_991L, -9_007_199_254_740_992L));
        String json = mapper.writeValueAsString(batch);
        assertThat(json).isEqualTo("{\"ids\":[1,\"9007199254740992\",-9007199254740991],"
                + "\"more\":[9007199254740991,\"-9007199254740992\"]}");
        Batch back = mapper.readValue(json, Batch.class);
        assertThat(back.ids()).containsExactly(1, 9_007_199_254_740_992L, -9_007_199_254_740_991L);
        assertThat(back.more()).containsExactly(9_007_199_254_740_991L, -9_007_199_254_740_992L);
        assertThat(mapper.readValue("{\"ids\":[],\"more\":[]}", Batch.class).ids()).isEmpty();
    }

    @Test
    void stringsAreReadEvenWhenTheMapperRefusesCoercion() {
        String json = "{\"id\":\"9007199254740993\",\"parent\":\"-42\",\"name\":\"n\"}";
        JsonMapper strict = JsonMapper.builder().disable(MapperFeature.ALLOW_COERCION_OF_SCALARS).build();
        assertThatThrownBy(() -> strict.readValue(json, Order.class)).isInstanceOf(MismatchedInputException.class);
        JsonMapper strictWithModule = JsonMapper.builder().disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
                .addModule(new LargeNumbersAsStringsModule()).build();
        Order read = strictWithModule.readValue(json, Order.class);
        assertThat(read.id()).isEqualTo(9_007_199_254_740_993L);
        assertThat(read.parent()).isEqualTo(-42L);
        assertThat(strictWithModule.readValue("{\"ids\":[\"9007199254740993\",2]}", Batch.class).ids())
                .containsExactly(9_007_199_254_740_993L, 2);
    }

    @Test
    void numbersAndNullsAreReadAsJacksonReadsThem() {
        Order read = mapper.readValue("{\"id\":9223372036854775807,\"parent\":null,\"name\":\"n\"}", Order.class);
        assertThat(read.id()).isEqualTo(Long.MAX_VALUE);
        assertThat(read.parent()).isNull();
        JsonMapper nullsAreZero = JsonMapper.builder().disable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .addModule(new LargeNumbersAsStringsModule()).build();
        assertThat(nullsAreZero.readValue("{\"id\":null}", Order.class).id()).isZero();
        JsonMapper nullsFail = JsonMapper.builder().enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .addModule(new LargeNumbersAsStringsModule()).build();
        assertThatThrownBy(() -> nullsFail.readValue("{\"id\":null}", Order.class))
                .isInstanceOf(MismatchedInputException.class);
    }

    @Test
    void textThatIsNoLongIsRefusedNamingTheValue() {
        for (String bad : List.of("12.5x", "abc", "9223372036854775808", "--1")) {
            assertThatThrownBy(() -> mapper.readValue("{\"id\":\"" + bad + "\"}", Order.class))
                    .as(bad).isInstanceOf(InvalidFormatException.class).hasMessageContaining(bad);
        }
        assertThatThrownBy(() -> mapper.readValue("{\"id\":9223372036854775808}", Order.class))
                .hasMessageContaining("9223372036854775808");
    }

    @Test
    void aJsonSnowflakeIdFieldStaysAStringEvenWhenSmall() {
        String json = mapper.writeValueAsString(new Marked(7, 7));
        assertThat(json).isEqualTo("{\"id\":\"7\",\"other\":7}");
        assertThat(mapper.readValue(json, Marked.class)).isEqualTo(new Marked(7, 7));
    }
}
