package dev.idgen.hibernate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.IdGenerators;
import dev.idgen.segment.SegmentGenerator;
import dev.idgen.segment.jdbc.JdbcSegmentSource;
import dev.idgen.snowflake.SnowflakeGenerator;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.hibernate.Session;
import org.hibernate.SessionFactory;
import org.hibernate.Transaction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** {@code @SegmentId} through Hibernate, with the counters in a JDBC segment table on the same engine. */
class SegmentIdOnDatabasesTest {

    private static final int PER_FACTORY = 3_000;
    private static final int PER_TRANSACTION = 250;
    private static final long STEP = 100;

    private static JdbcSegmentSource store(TestDatabase db, String table) {
        return JdbcSegmentSource.builder(db.dataSource()).table(Factories.table(table)).createTable(true).build();
    }

    @ParameterizedTest
    @EnumSource(value = TestDatabase.class, names = {"H2", "POSTGRESQL"})
    void oneFactoryNumbersItsEntitiesOneTwoThreeInPersistOrder(TestDatabase db) throws Exception {
        db.requireUp();
        EntityIds ids = EntityIds.of(null, null).withSegments(store(db, "idgen_seg_hib_dense"), STEP);
        try (SessionFactory sf = Factories.build(db, ids, PurchaseOrder.class)) {
            long[] made = write(sf, 0, PER_FACTORY);
            // one generator alone on its counter: the ranges it is granted follow each other, so the
            // numbers are exactly 1..n in persist order
            for (int i = 0; i < PER_FACTORY; i++) {
                assertEquals(i + 1, made[i], "entity " + i);
            }
            try (Connection c = db.connect(); Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery("SELECT COUNT(DISTINCT id), MIN(id), MAX(id) FROM "
                            + Factories.table("idgen_hib_order"))) {
                rs.next();
                assertEquals(PER_FACTORY, rs.getLong(1));
                assertEquals(1, rs.getLong(2));
                assertEquals(PER_FACTORY, rs.getLong(3));
            }
        }
    }

    @ParameterizedTest
    @EnumSource(value = TestDatabase.class, names = {"H2", "POSTGRESQL"})
    void twoFactoriesOnOneTableAndOneStoreNeverShareANumber(TestDatabase db) throws Exception {
        db.requireUp();
        JdbcSegmentSource store = store(db, "idgen_seg_hib_two");
        // each factory its own EntityIds, so its own generator: two "processes" on one counter
        EntityIds first = EntityIds.of(null, null).withSegments(store, STEP);
        EntityIds second = EntityIds.of(null, null).withSegments(
                name -> SegmentGenerator.builder().source(store).name(name).step(STEP).prefetch(0, 0).build());
        try (SessionFactory a = Factories.build(db, first, PurchaseOrder.class);
                SessionFactory b = Factories.build(db, second, Map.of("hibernate.hbm2ddl.auto", "none"),
                        PurchaseOrder.class)) {
            ExecutorService pool = Executors.newFixedThreadPool(2);
            long[][] made = new long[2][];
            try {
                Future<long[]> fa = pool.submit(() -> write(a, 0, PER_FACTORY));
                Future<long[]> fb = pool.submit(() -> write(b, 1, PER_FACTORY));
                made[0] = fa.get();
                made[1] = fb.get();
            } finally {
                pool.shutdown();
            }
            for (int w = 0; w < 2; w++) {
                for (int i = 1; i < PER_FACTORY; i++) {
                    assertTrue(made[w][i - 1] < made[w][i], "factory " + w + " entity " + i + " does not increase");
                }
            }
            java.util.Set<Long> all = new java.util.HashSet<>();
            for (long[] m : made) {
                for (long id : m) {
                    assertTrue(all.add(id), "number " + id + " given to both factories");
                }
            }
            try (Connection c = db.connect(); Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery("SELECT COUNT(DISTINCT id), MAX(id) FROM "
                            + Factories.table("idgen_hib_order"))) {
                rs.next();
                assertEquals(2L * PER_FACTORY, rs.getLong(1));
                // dense: nothing beyond what the two generators could hold unused at the end
                // (a range in use each plus the prefetched ones, at most the default bound each)
                long bound = 2L * PER_FACTORY + 2 * STEP * (1 + SegmentGenerator.DEFAULT_MAX_PREFETCH);
                assertTrue(rs.getLong(2) <= bound, "max id " + rs.getLong(2) + " above " + bound);
            }
        }
    }

    @Test
    void anEntityIdsWithoutSegmentsFailsTheStartUpNamingTheFix() {
        EntityIds plain = EntityIds.of(SnowflakeGenerator.builder().machineId(1).build(), IdGenerators.uuidV7());
        Exception e = assertThrows(Exception.class, () -> Factories.build(TestDatabase.H2, plain,
                PurchaseOrder.class).close());
        assertTrue(causes(e).contains("withSegments"), causes(e));
        assertTrue(causes(e).contains("orders"), causes(e));
    }

    @Test
    void aBlankCounterNameFailsTheStartUp() {
        EntityIds ids = EntityIds.of(null, null).withSegments(store(TestDatabase.H2, "idgen_seg_hib_bad"), STEP);
        Exception e = assertThrows(Exception.class, () -> Factories.build(TestDatabase.H2, ids,
                BadSegmentName.class).close());
        assertTrue(causes(e).contains("BadSegmentName.id"), causes(e));
        assertTrue(causes(e).contains("segment name"), causes(e));
    }

    @Test
    void aStepOutOfRangeIsRefusedAtOnce() {
        JdbcSegmentSource store = store(TestDatabase.H2, "idgen_seg_hib_step");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> EntityIds.of(null, null).withSegments(store, 0));
        assertTrue(e.getMessage().contains("0") && e.getMessage().contains("1 to"), e.getMessage());
    }

    private static String causes(Throwable e) {
        StringBuilder b = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            b.append(t).append(" | ");
        }
        return b.toString();
    }

    private static long[] write(SessionFactory sf, int writer, int count) {
        long[] made = new long[count];
        for (int from = 0; from < count; from += PER_TRANSACTION) {
            List<PurchaseOrder> batch = new ArrayList<>(PER_TRANSACTION);
            try (Session s = sf.openSession()) {
                Transaction tx = s.beginTransaction();
                for (int i = from; i < from + PER_TRANSACTION; i++) {
                    PurchaseOrder o = new PurchaseOrder(writer);
                    s.persist(o);
                    batch.add(o);
                }
                tx.commit();
            }
            for (int i = 0; i < batch.size(); i++) {
                made[from + i] = batch.get(i).id;
            }
        }
        return made;
    }
}
