package dev.idgen.random;

/** The clocks and process id a {@link SnapshotGuard} reads, set by hand; nothing moves unless a test moves it. */
final class FixedClocks {

    long wallMillis = 1_780_000_000_000L;
    long monotonicNanos = 5_000_000_000L;
    long pid = 4242;

    SnapshotGuard guard() {
        return new SnapshotGuard(() -> wallMillis, () -> monotonicNanos, () -> pid);
    }
}
