package dev.idgen.examples.orders;

import dev.idgen.spring.boot.json.JsonSnowflakeId;
import java.util.List;
import java.util.UUID;

/** An order as JSON: the Snowflake ids leave as strings. */
public record OrderView(@JsonSnowflakeId long id, UUID publicId, String customer, List<LineView> lines) {

    static OrderView of(Order order) {
        return new OrderView(order.getId(), order.getPublicId(), order.getCustomer(),
                order.getLines().stream().map(l -> new LineView(l.getId(), l.getSku(), l.getQuantity())).toList());
    }

    /** One line. */
    public record LineView(@JsonSnowflakeId long id, String sku, int quantity) {
    }

    /** The body of POST /orders. */
    public record Placement(String customer, List<Line> lines) {
        /** One line asked for. */
        public record Line(String sku, int quantity) {
        }
    }
}
