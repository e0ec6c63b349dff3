package dev.idgen.testkit.lease;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A loopback TCP forwarder that can drop every byte while keeping its sockets open: a network
 * partition as the client sees it (no reset, no FIN, its writes succeed and no answer comes), which
 * a stopped server cannot imitate. Point a lease's client at {@link #port()} to cut it off from its
 * coordinator with {@link #partition(boolean)}. {@link #dropAnswersAfter(String)} loses only the
 * server's answers, from the moment the client sends given text: the request arrives and is carried
 * out, and its outcome never reaches the client (a commit lost on the wire).
 */
public final class BlackholeProxy implements AutoCloseable {

    private final ServerSocket listener;
    private final int targetPort;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile boolean blackhole;
    private volatile byte[] answerTrigger;
    private volatile boolean dropAnswers;

    /**
     * Starts forwarding connections to a loopback port.
     *
     * @param targetPort the server's port on the loopback address
     * @throws IOException if no listening socket can be opened
     */
    public BlackholeProxy(int targetPort) throws IOException {
        this.targetPort = targetPort;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        daemon(this::acceptLoop, "proxy-accept");
    }

    /** {@return the loopback port clients connect to} */
    public int port() {
        return listener.getLocalPort();
    }

    /**
     * Starts or ends the partition: while on, bytes read from either side are dropped.
     *
     * @param on whether to drop everything
     */
    public void partition(boolean on) {
        blackhole = on;
    }

    /**
     * From the moment a client sends bytes holding {@code marker} (say, a table name in an SQL
     * statement), every answer from the server is dropped, until {@link #forwardAnswers()}; the
     * client's bytes, that one included, still reach the server.
     *
     * @param marker text a client's request will hold, in UTF-8
     */
    public void dropAnswersAfter(String marker) {
        dropAnswers = false;
        answerTrigger = marker.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    /** {@return whether a request held the marker, so that answers are being dropped} */
    public boolean droppingAnswers() {
        return dropAnswers;
    }

    /** Ends {@link #dropAnswersAfter(String)}: answers flow again (on connections opened from now on). */
    public void forwardAnswers() {
        answerTrigger = null;
        dropAnswers = false;
    }

    private void acceptLoop() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                sockets.add(client);
                sockets.add(server);
                daemon(() -> pump(client, server, true), "proxy-up");
                daemon(() -> pump(server, client, false), "proxy-down");
            } catch (IOException e) {
                return;
            }
        }
    }

    private void pump(Socket from, Socket to, boolean request) {
        byte[] buffer = new byte[8192];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                byte[] trigger = answerTrigger;
                if (request && trigger != null && holds(buffer, n, trigger)) {
                    dropAnswers = true; // set before the request goes on, so its answer cannot slip through
                }
                if (!blackhole && (request || !dropAnswers)) {
                    out.write(buffer, 0, n);
                    out.flush();
                }
            }
        } catch (IOException e) {
            // one side closed
        } finally {
            closeQuietly(from);
            closeQuietly(to);
        }
    }

    private static boolean holds(byte[] buffer, int length, byte[] marker) {
        for (int i = 0; i + marker.length <= length; i++) {
            if (java.util.Arrays.equals(buffer, i, i + marker.length, marker, 0, marker.length)) {
                return true;
            }
        }
        return false;
    }

    private static void daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        t.start();
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // already closed
        }
    }

    /** Stops listening and closes every forwarded connection. */
    @Override
    public void close() throws IOException {
        listener.close();
        sockets.forEach(BlackholeProxy::closeQuietly);
    }
}
