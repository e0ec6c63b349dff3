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
 * coordinator with {@link #partition(boolean)}.
 */
public final class BlackholeProxy implements AutoCloseable {

    private final ServerSocket listener;
    private final int targetPort;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile boolean blackhole;

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

    private void acceptLoop() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                sockets.add(client);
                sockets.add(server);
                daemon(() -> pump(client, server), "proxy-up");
                daemon(() -> pump(server, client), "proxy-down");
            } catch (IOException e) {
                return;
            }
        }
    }

    private void pump(Socket from, Socket to) {
        byte[] buffer = new byte[8192];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                if (!blackhole) {
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
