package dev.idgen.examples.orders;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import dev.idgen.machine.MachineIdLease;
import dev.idgen.testsupport.TestPostgres;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.aot.AotDetector;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.AnnotationConfigUtils;

/**
 * The real application, started as {@code main} would start it, on a random port against the real
 * PostgreSQL, driven over HTTP and shut down at the end. Everything lives in a schema of its own
 * ({@code idgen_orders_<random>}), dropped at the end.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class OrdersServiceTest {

    static final String SCHEMA = "idgen_orders_" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 8);
    static final int CLIENTS = 8;
    static final int ORDERS_PER_CLIENT = 25;

    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    /** Every order made by the tests so far, by client, in the order each client made them. */
    static final List<List<Long>> MADE = new ArrayList<>();

    static ConfigurableApplicationContext app;
    static int port;

    @BeforeAll
    static void start() {
        // the machine's PostgreSQL, or a private one (TestPostgres: a failure under CI, a skip elsewhere without either)
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute("CREATE SCHEMA " + SCHEMA);
        } catch (SQLException e) {
            throw new IllegalStateException("could not create schema " + SCHEMA, e);
        }
        SpringApplication application = new SpringApplication(OrdersApplication.class);
        // as main() would: with spring.aot.enabled=true the generated initializer is found by this class's name
        application.setMainApplicationClass(OrdersApplication.class);
        app = application.run(
                "--server.port=0",
                "--spring.datasource.url=" + TestPostgres.server().url() + "?currentSchema=" + SCHEMA,
                "--spring.jpa.hibernate.ddl-auto=create",
                "--idgen.machine-id.jdbc.table=" + SCHEMA + ".idgen_orders_lease",
                // short, so that a taken-over lease shows within a second and comes back within seconds
                "--idgen.machine-id.jdbc.ttl=4s",
                "--idgen.machine-id.jdbc.renew-every=300ms",
                // the takeover below keeps the instance out until its own id is free again; by default
                // a lease would claim another free id within a renewal and carry on
                "--idgen.machine-id.reclaim-any-id=false");
        port = app.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
        // run twice by the build: on the JVM as usual, and with spring.aot.enabled=true on the code
        // process-aot generated, where the context's bean definitions come from that code and no
        // configuration class is parsed at start
        assertThat(app.containsBean(AnnotationConfigUtils.CONFIGURATION_ANNOTATION_PROCESSOR_BEAN_NAME))
                .as("configuration classes parsed at start (spring.aot.enabled=%s)", AotDetector.useGeneratedArtifacts())
                .isEqualTo(!AotDetector.useGeneratedArtifacts());
    }

    @AfterAll
    static void releaseTheLeaseAndDropTheSchema() throws SQLException {
        try {
            if (app != null) {
                long id = machineId();
                app.close();
                // shutdown released the lease: its row expired at once instead of after the TTL
                try (Connection c = connect(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(
                        "SELECT expires_ms - (EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::bigint FROM " + SCHEMA
                                + ".idgen_orders_lease WHERE machine_id = " + id)) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getLong(1)).as("lease row released at shutdown").isNegative();
                }
            }
        } finally {
            try (Connection c = connect(); Statement st = c.createStatement()) {
                st.execute("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
            }
        }
    }

    @Test
    @Order(1)
    void concurrentClientsGetUniqueIncreasingIdsAsJsonStringsThatTheDatabaseSortsInCreationOrder() throws Exception {
        assertThat(get("/actuator/health").path("components").path("idgen").path("status").text())
                .isEqualTo("UP");

        ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
        List<Future<List<Long>>> clients = new ArrayList<>();
        try {
            for (int c = 0; c < CLIENTS; c++) {
                int client = c;
                clients.add(pool.submit(() -> {
                    List<Long> ids = new ArrayList<>();
                    for (int i = 0; i < ORDERS_PER_CLIENT; i++) {
                        HttpResponse<String> r = post("customer-" + client, "sku-" + i, i + 1);
                        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
                        Json order = Json.parse(r.body());
                        // the ids leave as JSON strings; above 2^53 a JSON number would lose digits
                        assertThat(order.path("id").isText()).as(r.body()).isTrue();
                        assertThat(order.path("lines").at(0).path("id").isText()).isTrue();
                        long id = Long.parseLong(order.path("id").text());
                        assertThat(id).isGreaterThan(1L << 53);
                        assertThat(r.headers().firstValue("Location")).hasValue("/orders/" + id);
                        assertThat(UUID.fromString(order.path("publicId").text()).version()).isEqualTo(7);
                        ids.add(id);
                    }
                    return ids;
                }));
            }
            for (Future<List<Long>> f : clients) {
                MADE.add(f.get());
            }
        } finally {
            pool.shutdown();
        }

        Set<Long> all = new HashSet<>();
        for (List<Long> ids : MADE) {
            all.addAll(ids);
            for (int i = 1; i < ids.size(); i++) {
                assertThat(ids.get(i)).as("a client's later order has a larger id").isGreaterThan(ids.get(i - 1));
            }
        }
        assertThat(all).hasSize(CLIENTS * ORDERS_PER_CLIENT);

        // PostgreSQL's ORDER BY id, and ORDER BY public_id (uuid), give each client's orders in the order made
        List<Long> byId = ids("SELECT id FROM " + SCHEMA + ".idgen_orders_order ORDER BY id");
        List<Long> byPublicId = ids("SELECT id FROM " + SCHEMA + ".idgen_orders_order ORDER BY public_id");
        for (List<Long> made : MADE) {
            assertThat(byId.stream().filter(made::contains).toList()).isEqualTo(made);
            assertThat(byPublicId.stream().filter(made::contains).toList()).isEqualTo(made);
        }
        assertThat(count("idgen_orders_line")).isEqualTo(CLIENTS * ORDERS_PER_CLIENT);
        assertThat(count("idgen_orders_event")).isEqualTo(CLIENTS * ORDERS_PER_CLIENT);
    }

    @Test
    @Order(2)
    void anOrderReadsBackWithTheSameIdsAndAnUnknownIdIs404() throws Exception {
        long id = MADE.get(3).get(7);
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(uri("/orders/" + id)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        Json order = Json.parse(r.body());
        assertThat(order.path("id").text()).isEqualTo(Long.toString(id));
        assertThat(order.path("customer").text()).isEqualTo("customer-3");
        assertThat(order.path("lines").at(0).path("sku").text()).isEqualTo("sku-7");
        assertThat(HTTP.send(HttpRequest.newBuilder(uri("/orders/" + (id + 1))).GET().build(),
                HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(404);
    }

    @Test
    @Order(3)
    void theMetricsEndpointShowsTheLease() throws Exception {
        Json held = get("/actuator/metrics/idgen.lease.held");
        assertThat(held.path("measurements").at(0).path("value").number()).isEqualTo(1.0);
        assertThat(held.path("availableTags").toString()).contains("source").contains("jdbc");
    }

    @Test
    @Order(4)
    void aLostLeaseTakesTheInstanceOutOfReadinessAndInsertsFailWith503LeavingNothingHalfWritten() throws Exception {
        long orders = count("idgen_orders_order");
        long lines = count("idgen_orders_line");
        long events = count("idgen_orders_event");
        long lastBefore = MADE.stream().flatMap(List::stream).mapToLong(Long::longValue).max().orElseThrow();

        assertThat(status("/actuator/health/readiness")).isEqualTo("UP");
        // another holder takes the row over (as after a long pause of this process)
        try (Connection c = connect(); Statement st = c.createStatement()) {
            assertThat(st.executeUpdate("UPDATE " + SCHEMA + ".idgen_orders_lease"
                    + " SET owner = 'another-holder', token = token + 1, nonce = nonce + 1 WHERE machine_id = "
                    + machineId())).isEqualTo(1);
        }
        await("health OUT_OF_SERVICE", () -> status().equals("OUT_OF_SERVICE"));
        assertThat(get("/actuator/health").path("components").path("idgen").path("status").text())
                .isEqualTo("OUT_OF_SERVICE");
        // out of the readiness group (the idgen component in it, as application.properties asks), alive
        await("readiness OUT_OF_SERVICE", () -> status("/actuator/health/readiness").equals("OUT_OF_SERVICE"));
        assertThat(get("/actuator/health/readiness").path("components").path("idgen").path("status").text())
                .isEqualTo("OUT_OF_SERVICE");
        assertThat(status("/actuator/health/liveness")).isEqualTo("UP");
        assertThat(get("/actuator/metrics/idgen.lease.held").path("measurements").at(0).path("value").number())
                .isEqualTo(0.0);

        for (int i = 0; i < 5; i++) {
            HttpResponse<String> r = post("customer-lost", "sku-lost", 1);
            assertThat(r.statusCode()).as(r.body()).isEqualTo(503);
            assertThat(r.headers().firstValue("Retry-After")).hasValue("1");
            Json problem = Json.parse(r.body());
            assertThat(problem.path("title").text()).isEqualTo("Id generation unavailable");
            assertThat(problem.path("detail").text()).contains("is no longer held");
        }
        // the event row flushed before the failing order was rolled back with it
        assertThat(count("idgen_orders_order")).isEqualTo(orders);
        assertThat(count("idgen_orders_line")).isEqualTo(lines);
        assertThat(count("idgen_orders_event")).isEqualTo(events);

        // the other holder's claim runs out (it never renews): the lease claims the id again, above its mark
        await("health UP again", () -> status().equals("UP"));
        await("readiness UP again", () -> status("/actuator/health/readiness").equals("UP"));
        HttpResponse<String> r = post("customer-back", "sku-back", 1);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        assertThat(Long.parseLong(Json.parse(r.body()).path("id").text())).isGreaterThan(lastBefore);
    }

    /** {@return the machine id the instance's lease holds: its row in the lease table} */
    private static long machineId() {
        return app.getBean(MachineIdLease.class).machineId();
    }

    private String status() {
        return status("/actuator/health");
    }

    private String status(String path) {
        try {
            return get(path).path("status").text();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private Json get(String path) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(uri(path)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        // the health endpoints answer 503 while OUT_OF_SERVICE
        assertThat(r.statusCode()).as(path + ": " + r.body()).isIn(200, 503);
        return Json.parse(r.body());
    }

    private HttpResponse<String> post(String customer, String sku, int quantity) throws Exception {
        String body = "{\"customer\":\"" + customer + "\",\"lines\":[{\"sku\":\"" + sku + "\",\"quantity\":" + quantity + "}]}";
        return HTTP.send(HttpRequest.newBuilder(uri("/orders")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail("not within 15 s: " + what);
            }
            Thread.sleep(100);
        }
    }

    private static List<Long> ids(String sql) throws SQLException {
        List<Long> ids = new ArrayList<>();
        try (Connection c = connect(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                ids.add(rs.getLong(1));
            }
        }
        return ids;
    }

    private static long count(String table) throws SQLException {
        try (Connection c = connect(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM " + SCHEMA + "." + table)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static Connection connect() throws SQLException {
        return DriverManager.getConnection(TestPostgres.server().url(), "postgres", "");
    }
}
