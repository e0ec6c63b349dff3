package dev.idgen.index.model;

import java.util.Arrays;

/**
 * A buffer pool of a fixed number of pages with least-recently-used eviction, kept as a doubly
 * linked list over page ids in two {@code int} arrays: no object per page, O(1) per access.
 */
final class LruPool {

    private static final int NONE = -1;

    private final int capacity;
    private int[] prev = new int[1024];
    private int[] next = new int[1024];
    private boolean[] resident = new boolean[1024];
    private int head = NONE;
    private int tail = NONE;
    private int size;
    private long accesses;
    private long hits;

    LruPool(int capacity) {
        this.capacity = capacity;
    }

    /** A read of a page: a hit if it is in the pool, else it is brought in. */
    void access(int page) {
        accesses++;
        if (page < resident.length && resident[page]) {
            hits++;
            unlink(page);
        } else {
            makeRoom(page);
        }
        pushFront(page);
    }

    /** A page just allocated: it enters the pool without a read. */
    void admit(int page) {
        if (page < resident.length && resident[page]) {
            unlink(page);
        } else {
            makeRoom(page);
        }
        pushFront(page);
    }

    int capacity() {
        return capacity;
    }

    long accesses() {
        return accesses;
    }

    long hits() {
        return hits;
    }

    private void makeRoom(int page) {
        if (page >= resident.length) {
            int length = Math.max(page + 1, resident.length * 2);
            prev = Arrays.copyOf(prev, length);
            next = Arrays.copyOf(next, length);
            resident = Arrays.copyOf(resident, length);
        }
        if (size == capacity) {
            int victim = tail;
            unlink(victim);
            resident[victim] = false;
            size--;
        }
        resident[page] = true;
        size++;
    }

    private void unlink(int page) {
        int p = prev[page];
        int n = next[page];
        if (p == NONE) {
            head = n;
        } else {
            next[p] = n;
        }
        if (n == NONE) {
            tail = p;
        } else {
            prev[n] = p;
        }
    }

    private void pushFront(int page) {
        prev[page] = NONE;
        next[page] = head;
        if (head != NONE) {
            prev[head] = page;
        }
        head = page;
        if (tail == NONE) {
            tail = page;
        }
    }
}
