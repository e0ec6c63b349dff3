package dev.idgen.index.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class LruPoolTest {

    @Test
    void evictsTheLeastRecentlyUsedPage() {
        LruPool pool = new LruPool(2);
        pool.access(1); // miss: [1]
        pool.access(2); // miss: [2, 1]
        pool.access(1); // hit:  [1, 2]
        pool.access(3); // miss, evicts 2: [3, 1]
        pool.access(1); // hit:  [1, 3]
        pool.access(2); // miss, evicts 3: [2, 1]
        pool.access(3); // miss, evicts 1: [3, 2]
        pool.admit(4);  // no read, evicts 2: [4, 3]
        pool.access(3); // hit
        pool.access(2); // miss
        assertEquals(9, pool.accesses());
        assertEquals(3, pool.hits());
    }

    @Test
    void growsPastItsFirstArrays() {
        LruPool pool = new LruPool(3);
        for (int page = 0; page < 5000; page++) {
            pool.access(page);
            pool.access(page);
        }
        assertEquals(10_000, pool.accesses());
        assertEquals(5000, pool.hits());
    }
}
