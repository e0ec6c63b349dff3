package dev.idgen.examples.orders;

import java.util.UUID;
import org.springframework.data.jpa.repository.JpaRepository;

interface OrderEventRepository extends JpaRepository<OrderEvent, UUID> {
}
