package lab.responsetime.jetty;

import io.dropwizard.lifecycle.Managed;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import lab.responsetime.core.computation.Cancellation;
import lab.responsetime.core.computation.ClientPresence;
import org.eclipse.jetty.ee10.servlet.ServletContextRequest;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.SelectableChannelEndPoint;

/**
 * Notices that the client of a request has gone while the server works for it without reading or
 * writing (waiting for a computation slot, sorting). Jetty only learns of a closed HTTP/1.1
 * connection when it next reads or writes, so the work would run to its end for nobody.
 *
 * <p>Over HTTP/1.1, cleartext or with TLS, one thread watches the TCP sockets of the requests under
 * watch with a selector of its own, for readability: on a GET's connection nothing more arrives
 * while the answer is being prepared unless the client closed it (end of stream, or a reset), which
 * shows as readable with no bytes to read, and the request's {@link Cancellation} fires. Bytes to
 * read are either a further, pipelined request (the client is still there) or, over TLS, the
 * close_notify alert a closing client sends before its FIN: the kernel tells them apart ({@link
 * TcpPeerState}: a socket whose peer has sent its FIN is in CLOSE_WAIT), and is asked again at
 * every look while such a connection is watched, since the FIN may follow the alert. The watcher
 * never reads, so Jetty's own reading of the connection is unchanged.
 *
 * <p>Over HTTP/2 and HTTP/3 Jetty reads the connection all along, since it carries other streams: a
 * stream the client resets, or a connection it closes, fails the request, and the request's failure
 * listener fires the cancellation ({@link #watchStream}).
 *
 * <p>Only requests with computation are watched, and only while they wait and sort, and requests at
 * a heavy compression level while they wait and until their body is written (which may be held back
 * whole, sending nothing that could fail): other requests, and every timed part of a study cell
 * without either, pay nothing.
 *
 * <p>A request with a body — the collector's {@code POST /api/books} — is never watched: it does no
 * work without reading its connection, so a client that leaves shows as a failed read. Were it
 * watched, its unread body would show as bytes to read, taken for a pipelined request (never for a
 * departure), and stay whole for the resource, since the watcher never reads.
 */
public final class ConnectionWatcher implements Managed {
    /** Why a watched request's work is cancelled. */
    static final String CLIENT_GONE =
            "the client closed the connection before the answer was ready";

    /** The longest the thread sleeps between looks when nothing wakes it. */
    private static final long SELECT_TIMEOUT_MILLIS = 200;

    /** Why a watched stream's work is cancelled when it ended otherwise (an idle timeout, say). */
    static final String STREAM_FAILED = "the request's stream ended before the answer was ready";

    private final Queue<Runnable> changes = new ConcurrentLinkedQueue<>();

    /**
     * Watched sockets with bytes to read whose client may yet close (watcher thread only): their
     * keys, asked about at every look.
     */
    private final Set<SelectionKey> unsure = new HashSet<>();

    private volatile Selector selector;
    private volatile boolean stopping;
    private Thread thread;

    @Override
    public void start() throws IOException {
        selector = Selector.open();
        thread = new Thread(this::run, "client-connection-watcher");
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void stop() throws Exception {
        stopping = true;
        selector.wakeup();
        thread.join(2_000);
        selector.close();
    }

    /** The presence of the client that sent {@code request}, as this watcher sees it. */
    public ClientPresence presenceOf(HttpServletRequest request) {
        return cancellation -> watch(request, cancellation);
    }

    private ClientPresence.Watch watch(HttpServletRequest request, Cancellation cancellation) {
        ServletContextRequest jettyRequest =
                ServletContextRequest.getServletContextRequest(request);
        if (jettyRequest == null) {
            return () -> {};
        }
        HttpVersion version = jettyRequest.getConnectionMetaData().getHttpVersion();
        if (version == HttpVersion.HTTP_2 || version == HttpVersion.HTTP_3) {
            return watchStream(jettyRequest, cancellation);
        }
        SocketChannel channel = socketOf(jettyRequest);
        Selector watching = selector;
        if (channel == null || watching == null || stopping) {
            return () -> {};
        }
        AtomicReference<SelectionKey> key = new AtomicReference<>();
        changes.add(() -> key.set(register(channel, cancellation)));
        watching.wakeup();
        return () -> {
            changes.add(
                    () -> {
                        SelectionKey registered = key.get();
                        if (registered != null) {
                            unsure.remove(registered);
                            registered.cancel();
                        }
                    });
            watching.wakeup();
        };
    }

    /**
     * A request on a stream of a multiplexed connection (HTTP/2, HTTP/3): Jetty fails it when the
     * client resets the stream or the connection closes, and its failure listener cancels the work
     * while the watch is open. A listener cannot be removed; closing the watch makes it do nothing.
     */
    private static ClientPresence.Watch watchStream(
            ServletContextRequest request, Cancellation cancellation) {
        AtomicBoolean open = new AtomicBoolean(true);
        request.addFailureListener(
                failure -> {
                    if (open.get()) {
                        cancellation.cancel(
                                failure instanceof TimeoutException ? STREAM_FAILED : CLIENT_GONE);
                    }
                });
        Connection connection = request.getConnectionMetaData().getConnection();
        if (connection != null && !connection.getEndPoint().isOpen()) {
            // Closed before the listener was there: Jetty does not call it for an earlier failure.
            cancellation.cancel(CLIENT_GONE);
        }
        return () -> open.set(false);
    }

    /**
     * The TCP socket of an HTTP/1.x request's connection — under TLS's, when the connection is
     * encrypted — or null where there is none to watch.
     */
    private static SocketChannel socketOf(ServletContextRequest request) {
        Connection connection = request.getConnectionMetaData().getConnection();
        EndPoint endPoint = connection == null ? null : connection.getEndPoint();
        while (endPoint instanceof EndPoint.Wrapper wrapper) {
            endPoint = wrapper.unwrap();
        }
        return endPoint instanceof SelectableChannelEndPoint selectable
                        && selectable.getChannel() instanceof SocketChannel socket
                ? socket
                : null;
    }

    private SelectionKey register(SocketChannel channel, Cancellation cancellation) {
        try {
            try {
                return channel.register(selector, SelectionKey.OP_READ, cancellation);
            } catch (CancelledKeyException previousWatchNotYetGone) {
                // The connection's previous request was watched too; its key leaves at the next
                // select.
                selector.selectNow();
                return channel.register(selector, SelectionKey.OP_READ, cancellation);
            }
        } catch (ClosedChannelException closed) {
            cancellation.cancel(CLIENT_GONE);
        } catch (IOException | RuntimeException e) {
            // The connection cannot be watched; the work runs as it would without the watcher.
        }
        return null;
    }

    private void run() {
        while (!stopping) {
            try {
                for (Runnable change; (change = changes.poll()) != null; ) {
                    change.run();
                }
                selector.select(SELECT_TIMEOUT_MILLIS);
                Iterator<SelectionKey> ready = selector.selectedKeys().iterator();
                while (ready.hasNext()) {
                    SelectionKey key = ready.next();
                    ready.remove();
                    look(key);
                }
                unsure.removeIf(key -> !key.isValid() || askKernel(key));
            } catch (IOException | RuntimeException e) {
                // One failed look (a key cancelled under it, say) must not end the watching.
                if (!selector.isOpen()) {
                    return;
                }
            }
        }
    }

    private void look(SelectionKey key) {
        Cancellation cancellation = (Cancellation) key.attachment();
        if (!key.isValid()) {
            return;
        }
        int available;
        try {
            available = ((SocketChannel) key.channel()).socket().getInputStream().available();
        } catch (IOException reset) {
            available = 0;
        }
        if (available == 0) {
            key.cancel();
            cancellation.cancel(CLIENT_GONE);
            return;
        }
        // A pipelined request (Jetty reads it once this answer is out), or TLS's close_notify.
        key.interestOps(0);
        if (!askKernel(key) && TcpPeerState.AVAILABLE) {
            unsure.add(key);
        }
    }

    /**
     * Asks the kernel whether the client of a watched socket with bytes to read has closed it;
     * cancels the work and the watch if so. Returns whether the watch is over.
     */
    private static boolean askKernel(SelectionKey key) {
        SocketChannel channel = (SocketChannel) key.channel();
        Boolean closed;
        try {
            closed =
                    TcpPeerState.peerClosed(
                            (InetSocketAddress) channel.getLocalAddress(),
                            (InetSocketAddress) channel.getRemoteAddress());
        } catch (IOException | RuntimeException e) {
            closed = Boolean.TRUE;
        }
        if (Boolean.TRUE.equals(closed)) {
            key.cancel();
            ((Cancellation) key.attachment()).cancel(CLIENT_GONE);
            return true;
        }
        return false;
    }
}
