package dev.idgen.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;

/**
 * A loopback port where no server runs, for tests of what a client does when its server is down.
 * The port is held by a socket that is bound and never listens, so a connection to it is refused at
 * once (the kernel answers with a reset) and no other process can take the port while the test runs.
 * Close it when the test is done.
 */
public final class ClosedPort implements AutoCloseable {

    private final Socket holder;

    private ClosedPort(Socket holder) {
        this.holder = holder;
    }

    /** {@return a port on 127.0.0.1 bound by this process and listened on by nothing} */
    public static ClosedPort open() {
        Socket s = new Socket();
        try {
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            return new ClosedPort(s);
        } catch (IOException e) {
            try {
                s.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw new UncheckedIOException("could not bind a loopback port", e);
        }
    }

    /** {@return the port number} */
    public int port() {
        return holder.getLocalPort();
    }

    /** {@return {@code 127.0.0.1:port}} */
    public String hostAndPort() {
        return "127.0.0.1:" + port();
    }

    @Override
    public void close() throws IOException {
        holder.close();
    }
}
