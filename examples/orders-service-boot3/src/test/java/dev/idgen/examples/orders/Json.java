package dev.idgen.examples.orders;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A JSON document the tests read (the service's answers, the AOT build's metadata), through the
 * Jackson of this Boot generation: Jackson 2 here. The tests are examples/orders-service's, whose
 * class of this name reads with Jackson 3.
 */
final class Json {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    private final JsonNode node;

    private Json(JsonNode node) {
        this.node = node;
    }

    static Json parse(String text) {
        try {
            return new Json(MAPPER.readTree(text));
        } catch (IOException e) {
            throw new UncheckedIOException("not JSON: " + text, e);
        }
    }

    static Json read(Path file) throws IOException {
        return parse(Files.readString(file));
    }

    /** {@return the field {@code name}, or a missing value whose own fields are missing too} */
    Json path(String name) {
        return new Json(node.path(name));
    }

    /** {@return the element at {@code index} of an array, or a missing value} */
    Json at(int index) {
        return new Json(node.path(index));
    }

    /** {@return the elements of an array; none for anything else} */
    List<Json> elements() {
        List<Json> all = new ArrayList<>();
        if (node.isArray()) {
            node.forEach(e -> all.add(new Json(e)));
        }
        return all;
    }

    /** {@return whether this is a JSON string} */
    boolean isText() {
        return node.isTextual();
    }

    /** {@return a string's text, a scalar's text form, or "" when missing} */
    String text() {
        return node.asText("");
    }

    /** {@return a number's value} */
    double number() {
        return node.asDouble();
    }

    /** {@return whether this is {@code true}} */
    boolean isTrue() {
        return node.isBoolean() && node.asBoolean();
    }

    @Override
    public String toString() {
        return node.toString();
    }
}
