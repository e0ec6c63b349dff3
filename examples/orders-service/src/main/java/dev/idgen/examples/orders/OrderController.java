package dev.idgen.examples.orders;

import dev.idgen.clock.ClockMovedBackwardsException;
import dev.idgen.machine.MachineIdLostException;
import java.net.URI;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/orders")
public class OrderController {

    private final OrderService service;

    OrderController(OrderService service) {
        this.service = service;
    }

    @PostMapping
    ResponseEntity<OrderView> place(@RequestBody OrderView.Placement placement) {
        OrderView order = service.place(placement);
        return ResponseEntity.created(URI.create("/orders/" + order.id())).body(order);
    }

    @GetMapping("/{id}")
    ResponseEntity<OrderView> get(@PathVariable("id") long id) {
        return ResponseEntity.of(service.find(id));
    }

    /**
     * No id can be made right now (the machine-id lease is lost, or the clock stepped back further
     * than the policy allows): 503, so that clients and load balancers retry elsewhere or later.
     * Spring Data wraps the generator's exception; Spring matches handlers on the causes too.
     */
    @ExceptionHandler({MachineIdLostException.class, ClockMovedBackwardsException.class})
    ResponseEntity<ProblemDetail> noIds(Exception e) {
        Throwable cause = e;
        while (!(cause instanceof MachineIdLostException || cause instanceof ClockMovedBackwardsException)) {
            cause = cause.getCause();
        }
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE,
                "No order ids can be made right now: " + cause.getMessage());
        problem.setTitle("Id generation unavailable");
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).header(HttpHeaders.RETRY_AFTER, "1").body(problem);
    }
}
