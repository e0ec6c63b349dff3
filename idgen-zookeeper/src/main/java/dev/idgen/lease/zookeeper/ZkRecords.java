package dev.idgen.lease.zookeeper;

import dev.idgen.lease.spi.LeaseRecord;
import dev.idgen.lease.spi.NamespaceRecord;
import java.nio.charset.StandardCharsets;

/**
 * The text a lease znode holds: one {@code name=value} line per field, numbers in decimal, the
 * free-text field (owner, layout) last so that it may hold any character, a newline included. Easy
 * to read with {@code zkCli.sh get}:
 *
 * <pre>
 * token=3
 * nonce=-5120884385236911347
 * expires=1800000030000
 * mark=1800000002117
 * offset=4000
 * owner=api-7/4711/3f09c2a1be
 * </pre>
 */
final class ZkRecords {

    private static final String[] LEASE = {"token", "nonce", "expires", "mark", "offset", "owner"};
    private static final String[] NAMESPACE = {"highestId", "nonce", "trustedFrom", "layout"};

    private ZkRecords() {
    }

    static byte[] encode(LeaseRecord r) {
        return text(LEASE, r.token(), r.nonce(), r.expiresMillis(), r.markMillis(), r.fenceOffsetMillis(), r.owner());
    }

    static byte[] encode(NamespaceRecord n) {
        return text(NAMESPACE, n.highestId(), n.nonce(), n.trustedFromMillis(), n.layout());
    }

    /**
     * @param path the znode, for the message
     * @throws IllegalStateException naming the znode and what it holds if that is not a lease record
     */
    static LeaseRecord lease(String path, byte[] data) {
        String[] v = fields(path, data, LEASE);
        try {
            return new LeaseRecord(v[5], Long.parseLong(v[0]), Long.parseLong(v[1]), Long.parseLong(v[2]),
                    Long.parseLong(v[3]), Long.parseLong(v[4]));
        } catch (IllegalArgumentException e) {
            throw notOurs(path, data, e.getMessage());
        }
    }

    /**
     * @param path the znode, for the message
     * @throws IllegalStateException naming the znode and what it holds if that is not a namespace record
     */
    static NamespaceRecord namespace(String path, byte[] data) {
        String[] v = fields(path, data, NAMESPACE);
        try {
            return new NamespaceRecord(v[3], Long.parseLong(v[0]), Long.parseLong(v[1]), Long.parseLong(v[2]));
        } catch (IllegalArgumentException e) {
            throw notOurs(path, data, e.getMessage());
        }
    }

    private static byte[] text(String[] names, Object... values) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < names.length; i++) {
            s.append(names[i]).append('=').append(values[i]).append('\n');
        }
        return s.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** The values in {@code names}' order; the last runs to the end of the text, less its final newline. */
    private static String[] fields(String path, byte[] data, String[] names) {
        String text = data == null ? "" : new String(data, StandardCharsets.UTF_8);
        String[] values = new String[names.length];
        int at = 0;
        for (int i = 0; i < names.length; i++) {
            String prefix = names[i] + "=";
            if (!text.startsWith(prefix, at)) {
                throw notOurs(path, data, "expected the line " + prefix + "...");
            }
            at += prefix.length();
            int end = i < names.length - 1 ? text.indexOf('\n', at) : text.length() - 1;
            if (end < at || text.charAt(end) != '\n') {
                throw notOurs(path, data, "the value of " + names[i] + " does not end with a newline");
            }
            values[i] = text.substring(at, end);
            at = end + 1;
        }
        return values;
    }

    private static IllegalStateException notOurs(String path, byte[] data, String why) {
        String text = data == null ? "" : new String(data, StandardCharsets.UTF_8).replace("\n", "\\n");
        String shown = data == null ? "nothing"
                : "'" + (text.length() > 200 ? text.substring(0, 200) + "..." : text) + "'";
        return new IllegalStateException("The znode " + path + " holds " + shown + ", not an idgen lease record ("
                + why + "); is another program using this path? Give the lease a path of its own");
    }
}
