package dev.idgen.jcstress.soak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class IdLedgerTest {

    private static IdLedger ledger(long[]... perThread) {
        IdLedger ledger = new IdLedger(perThread.length, perThread[0].length, false);
        for (int t = 0; t < perThread.length; t++) {
            System.arraycopy(perThread[t], 0, ledger.high(t), 0, perThread[t].length);
        }
        return ledger;
    }

    @Test
    void interleavedDistinctIdsAreClean() {
        IdLedger.Verdict v = ledger(new long[] {1, 4, 5}, new long[] {2, 3, 9}).check(new int[] {3, 3});
        assertEquals(new IdLedger.Verdict(6, 0, 0, null), v);
    }

    @Test
    void anIdInTwoThreadsIsCountedOnce() {
        IdLedger.Verdict v = ledger(new long[] {1, 4, 7}, new long[] {2, 4, 8}).check(new int[] {3, 3});
        assertEquals(1, v.duplicates());
        assertTrue(v.firstProblem().contains("duplicate 4"), v.firstProblem());
    }

    @Test
    void aThreadWhoseIdsDoNotIncreaseIsAnOrderViolation() {
        IdLedger.Verdict v = ledger(new long[] {1, 3, 3}, new long[] {5, 4, 6}).check(new int[] {3, 3});
        assertEquals(2, v.orderViolations());
    }

    @Test
    void orderIsUnsignedLikeUuidBytes() {
        IdLedger ledger = new IdLedger(1, 2, true);
        ledger.high(0)[0] = 0x7FFF_FFFF_FFFF_FFFFL;
        ledger.high(0)[1] = 0x8000_0000_0000_0000L; // larger unsigned, smaller signed
        assertTrue(ledger.check(new int[] {2}).clean());
    }

    @Test
    void onlyTheFilledSlotsAreChecked() {
        IdLedger.Verdict v = ledger(new long[] {1, 2, 0}, new long[] {3, 0, 0}).check(new int[] {2, 1});
        assertEquals(new IdLedger.Verdict(3, 0, 0, null), v);
    }
}
