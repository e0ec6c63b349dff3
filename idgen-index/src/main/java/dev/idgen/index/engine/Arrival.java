package dev.idgen.index.engine;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * The keys of a run in the order the engine took them: the high and low words (the low word 0 for
 * BIGINT keys) and the writer of each.
 *
 * @param high each key's high word (a BIGINT key itself)
 * @param low each key's low word
 * @param writers each key's writer, 0 to writers - 1
 */
public record Arrival(long[] high, long[] low, byte[] writers) {

    /**
     * Sorts rows into the order of their statements' midpoints.
     *
     * @param high each row's high word
     * @param low each row's low word
     * @param writers each row's writer
     * @param middle each row's statement midpoint, nanoseconds
     * @param number whether to number the keys 1, 2, 3, ... in that order (the engine's own counter)
     * @return the rows in order
     */
    static Arrival inOrder(long[] high, long[] low, byte[] writers, long[] middle, boolean number) {
        int n = high.length;
        Integer[] index = new Integer[n];
        for (int i = 0; i < n; i++) {
            index[i] = i;
        }
        java.util.Arrays.sort(index, (a, b) -> a.equals(b) ? 0 : middle[a] != middle[b] ? Long.compare(middle[a], middle[b])
                : Integer.compare(a, b));
        long[] h = new long[n];
        long[] l = new long[n];
        byte[] w = new byte[n];
        for (int i = 0; i < n; i++) {
            h[i] = number ? i + 1L : high[index[i]];
            l[i] = low[index[i]];
            w[i] = writers[index[i]];
        }
        return new Arrival(h, l, w);
    }

    /**
     * The trace the testkit's calibration test replays: per row the writer (one byte) and the
     * change of the key's millisecond from the row before (a zigzag varint), gzipped. The
     * millisecond is read from the key: Snowflake's time field, UUIDv7's {@code unix_ts_ms}.
     *
     * @param snowflake whether the keys are Twitter-layout Snowflake IDs (else UUIDv7)
     * @return the gzipped trace
     */
    public byte[] trace(boolean snowflake) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (OutputStream out = new GZIPOutputStream(bytes)) {
            long previous = 0;
            for (int i = 0; i < high.length; i++) {
                long ms = snowflake ? high[i] >>> 22 : high[i] >>> 16;
                out.write(writers[i]);
                long delta = ms - previous;
                previous = ms;
                long z = (delta << 1) ^ (delta >> 63);
                while ((z & ~0x7FL) != 0) {
                    out.write((int) (z & 0x7F) | 0x80);
                    z >>>= 7;
                }
                out.write((int) z);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /**
     * The exact keys in order, for runs whose order is exact (the turnstile): per row the writer
     * (one byte), then the high and the low word (8 bytes each, big-endian), gzipped.
     *
     * @return the gzipped keys
     */
    public byte[] keys() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (java.io.DataOutputStream out = new java.io.DataOutputStream(new GZIPOutputStream(bytes))) {
            for (int i = 0; i < high.length; i++) {
                out.writeByte(writers[i]);
                out.writeLong(high[i]);
                out.writeLong(low[i]);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /**
     * A trace as {@link #trace(boolean)} wrote it: per row its writer and its key's millisecond.
     *
     * @param writers each row's writer, 0 to 255
     * @param millis each row's key millisecond
     */
    public record Trace(int[] writers, long[] millis) {

        /**
         * Reads a gzipped trace to its end.
         *
         * @param gz the gzipped trace
         * @return its rows
         * @throws IOException if it cannot be read or ends inside a row
         */
        public static Trace read(InputStream gz) throws IOException {
            int[] writers = new int[1024];
            long[] millis = new long[1024];
            int n = 0;
            try (InputStream in = new BufferedInputStream(new GZIPInputStream(gz))) {
                long ms = 0;
                for (int writer; (writer = in.read()) >= 0; n++) {
                    long z = 0;
                    for (int shift = 0, b; ; shift += 7) {
                        if ((b = in.read()) < 0) {
                            throw new EOFException("the trace ends inside row " + n);
                        }
                        z |= (long) (b & 0x7F) << shift;
                        if ((b & 0x80) == 0) {
                            break;
                        }
                    }
                    ms += (z >>> 1) ^ -(z & 1); // the zigzag delta back to a signed change
                    if (n == writers.length) {
                        writers = Arrays.copyOf(writers, 2 * n);
                        millis = Arrays.copyOf(millis, 2 * n);
                    }
                    writers[n] = writer;
                    millis[n] = ms;
                }
            }
            return new Trace(Arrays.copyOf(writers, n), Arrays.copyOf(millis, n));
        }
    }
}
