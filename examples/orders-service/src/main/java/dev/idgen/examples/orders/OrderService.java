package dev.idgen.examples.orders;

import java.util.Optional;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

@Service
public class OrderService {

    private final OrderRepository orders;
    private final OrderEventRepository events;

    OrderService(OrderRepository orders, OrderEventRepository events) {
        this.orders = orders;
        this.events = events;
    }

    /**
     * Records the request, then the order and its lines, in one transaction. When the Snowflake
     * generator cannot make an id (its lease is lost), the order's persist fails and the already
     * flushed event row is rolled back with it.
     */
    @Transactional
    public OrderView place(OrderView.Placement placement) {
        events.saveAndFlush(new OrderEvent("placing", placement.customer()));
        Order order = new Order(placement.customer());
        for (OrderView.Placement.Line line : placement.lines()) {
            order.addLine(line.sku(), line.quantity());
        }
        orders.saveAndFlush(order);
        return OrderView.of(order);
    }

    @Transactional(readOnly = true)
    public Optional<OrderView> find(long id) {
        return orders.findById(id).map(OrderView::of);
    }
}
