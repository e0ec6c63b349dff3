package dev.idgen.hibernate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.idgen.IdGenerators;
import dev.idgen.lease.jdbc.JdbcMachineIdLease;
import dev.idgen.machine.MachineIdLostException;
import dev.idgen.snowflake.SnowflakeGenerator;
import dev.idgen.uuid.Uuids;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.hibernate.Session;
import org.hibernate.SessionFactory;
import org.hibernate.Transaction;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** {@code @Snowflake} and {@code @UuidV7} through Hibernate on H2, PostgreSQL and MariaDB. */
class EntityIdsOnDatabasesTest {

    private static final int WRITERS = 4;
    private static final int PER_WRITER = 25_000;
    private static final int PER_TRANSACTION = 1_000;

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void fourWritersGetUniqueIncreasingIdsThatTheDatabaseSortsInCreationOrder(TestDatabase db) throws Exception {
        db.requireUp();
        SnowflakeGenerator snowflake = SnowflakeGenerator.builder().machineId(3).build();
        try (SessionFactory sf = Factories.build(db, EntityIds.of(snowflake, IdGenerators.uuidV7()), Item.class)) {
            long[][] ids = new long[WRITERS][PER_WRITER];
            UUID[][] uuids = new UUID[WRITERS][PER_WRITER];
            long started = System.nanoTime();
            ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
            try {
                List<Future<?>> done = new ArrayList<>();
                for (int w = 0; w < WRITERS; w++) {
                    int writer = w;
                    done.add(pool.submit(() -> write(sf, writer, ids[writer], uuids[writer])));
                }
                for (Future<?> f : done) {
                    f.get();
                }
            } finally {
                pool.shutdown();
            }
            System.out.printf("%s: %d entities by %d writers in %d ms%n", db, WRITERS * PER_WRITER, WRITERS,
                    (System.nanoTime() - started) / 1_000_000);

            for (int w = 0; w < WRITERS; w++) {
                for (int i = 1; i < PER_WRITER; i++) {
                    assertTrue(ids[w][i - 1] < ids[w][i], "writer " + w + " id " + i + " does not increase");
                    assertTrue(Uuids.unsignedOrder().compare(uuids[w][i - 1], uuids[w][i]) < 0,
                            "writer " + w + " UUID " + i + " does not increase");
                    assertEquals(7, uuids[w][i].version());
                }
                assertEquals(3, snowflake.decode(ids[w][0]).machineId());
            }

            String table = Factories.table("idgen_hib_item");
            try (Connection c = db.connect()) {
                assertEquals(WRITERS * PER_WRITER, scalar(c, "SELECT COUNT(DISTINCT id) FROM " + table));
                assertEquals(WRITERS * PER_WRITER, scalar(c, "SELECT COUNT(DISTINCT public_id) FROM " + table));
                // the engine's own ORDER BY must give every writer's rows back in the order it made them
                assertCreationOrder(c, "SELECT writer, seq FROM " + table + " ORDER BY id", "id");
                assertCreationOrder(c, "SELECT writer, seq FROM " + table + " ORDER BY public_id", "public_id");
                assertColumnTypes(db, c.getMetaData(), table);
            }
        }
    }

    private static void write(SessionFactory sf, int writer, long[] ids, UUID[] uuids) {
        for (int from = 0; from < PER_WRITER; from += PER_TRANSACTION) {
            List<Item> batch = new ArrayList<>(PER_TRANSACTION);
            try (Session s = sf.openSession()) {
                Transaction tx = s.beginTransaction();
                for (int seq = from; seq < from + PER_TRANSACTION; seq++) {
                    Item item = new Item(writer, seq);
                    s.persist(item);
                    batch.add(item);
                }
                tx.commit();
            }
            for (Item item : batch) {
                ids[item.seq] = item.id;
                uuids[item.seq] = item.publicId;
            }
        }
    }

    private static void assertCreationOrder(Connection c, String sql, String column) throws SQLException {
        int[] next = new int[WRITERS];
        int rows = 0;
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                int writer = rs.getInt(1);
                int seq = rs.getInt(2);
                if (seq != next[writer]) {
                    fail("ORDER BY " + column + ": row " + rows + " is writer " + writer + "'s entity " + seq
                            + ", but that writer's next one in creation order is " + next[writer]);
                }
                next[writer]++;
                rows++;
            }
        }
        assertEquals(WRITERS * PER_WRITER, rows);
    }

    private static void assertColumnTypes(TestDatabase db, DatabaseMetaData md, String table) throws SQLException {
        String name = db == TestDatabase.H2 ? table.toUpperCase(Locale.ROOT) : table;
        String idType = null;
        String uuidType = null;
        int uuidSize = -1;
        try (ResultSet rs = md.getColumns(null, null, name, null)) {
            while (rs.next()) {
                String column = rs.getString("COLUMN_NAME").toLowerCase(Locale.ROOT);
                if (column.equals("id")) {
                    idType = rs.getString("TYPE_NAME").toLowerCase(Locale.ROOT);
                } else if (column.equals("public_id")) {
                    uuidType = rs.getString("TYPE_NAME").toLowerCase(Locale.ROOT);
                    uuidSize = rs.getInt("COLUMN_SIZE");
                }
            }
        }
        assertNotNull(idType, "no column id in " + name);
        assertTrue(idType.equals("bigint") || idType.equals("int8"), db + ": id is " + idType);
        switch (db) {
            case POSTGRESQL, H2 -> assertEquals("uuid", uuidType, db + ": public_id");
            case MARIADB -> {
                assertEquals("binary", uuidType, db + ": public_id");
                assertEquals(16, uuidSize, db + ": public_id size");
            }
        }
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void aLostLeaseFailsTheInsertAndNothingOfTheTransactionIsWritten(TestDatabase db) throws Exception {
        db.requireUp();
        String leaseTable = Factories.table("idgen_hib_lease");
        JdbcMachineIdLease lease = JdbcMachineIdLease.builder(db.dataSource()).table(leaseTable).createTable(true)
                // a lease that may not move to another id: once its row is taken it stays lost
                .maxMachineId(1023).ttl(Duration.ofSeconds(30)).reclaimAnyId(false).acquire();
        try {
            SnowflakeGenerator snowflake = SnowflakeGenerator.builder().machineId(lease).build();
            try (SessionFactory sf = Factories.build(db, EntityIds.of(snowflake, IdGenerators.uuidV7()),
                    Item.class, Note.class)) {
                try (Session s = sf.openSession()) {
                    Transaction tx = s.beginTransaction();
                    for (int i = 0; i < 10; i++) {
                        s.persist(new Item(0, i));
                        s.persist(new Note("before " + i));
                    }
                    tx.commit();
                }

                // @Id: generated by persist(), so the lost lease shows at persist()
                try (Session s = sf.openSession()) {
                    Transaction tx = s.beginTransaction();
                    s.persist(new Item(1, 0));
                    s.persist(new Note("in the same transaction"));
                    takeOver(db, leaseTable, lease.machineId());
                    assertTrue(!lease.renewNow(), "the holder finds its row taken over");
                    MachineIdLostException lost = assertThrows(MachineIdLostException.class,
                            () -> s.persist(new Item(1, 1)));
                    assertEquals(lease.machineId(), lost.lease().machineId());
                    tx.rollback();
                }
                // a plain column: generated when the row is written, so it shows at flush/commit
                try (Session s = sf.openSession()) {
                    Transaction tx = s.beginTransaction();
                    s.persist(new Note("after the loss"));
                    RuntimeException e = assertThrows(RuntimeException.class, tx::commit);
                    assertInstanceOf(MachineIdLostException.class, rootOrSelf(e, MachineIdLostException.class),
                            "the commit fails because of the lost lease: " + e);
                    if (tx.isActive()) {
                        tx.rollback();
                    }
                }
                try (Connection c = db.connect()) {
                    assertEquals(10, scalar(c, "SELECT COUNT(*) FROM " + Factories.table("idgen_hib_item")),
                            "only the rows committed before the loss");
                    assertEquals(10, scalar(c, "SELECT COUNT(*) FROM " + Factories.table("idgen_hib_note")),
                            "only the rows committed before the loss");
                }
            }
        } finally {
            lease.close();
            try (Connection c = db.connect(); Statement st = c.createStatement()) {
                st.execute("DROP TABLE IF EXISTS " + leaseTable);
            }
        }
    }

    private static void takeOver(TestDatabase db, String leaseTable, long machineId) throws SQLException {
        try (Connection c = db.connect(); PreparedStatement ps = c.prepareStatement("UPDATE " + leaseTable
                + " SET owner = 'another-holder', token = token + 1, nonce = nonce + 1 WHERE machine_id = ?")) {
            ps.setLong(1, machineId);
            assertEquals(1, ps.executeUpdate());
        }
    }

    private static Throwable rootOrSelf(Throwable e, Class<? extends Throwable> wanted) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (wanted.isInstance(t)) {
                return t;
            }
        }
        return e;
    }

    private static long scalar(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
