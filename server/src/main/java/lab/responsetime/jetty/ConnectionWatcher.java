package lab.responsetime.jetty;

import io.dropwizard.lifecycle.Managed;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.Iterator;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicReference;
import lab.responsetime.core.computation.Cancellation;
import lab.responsetime.core.computation.ClientPresence;
import org.eclipse.jetty.ee10.servlet.ServletContextRequest;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.SelectableChannelEndPoint;

/**
 * Notices that the client of a request has gone while the server works for it without reading or
 * writing (waiting for a computation slot, sorting). Jetty only learns of a closed connection when
 * it next reads or writes, so the work would run to its end for nobody.
 *
 * <p>One thread watches the connections of the requests under watch with a selector of its own, for
 * readability: on a GET's connection nothing more arrives while the answer is being prepared unless
 * the client closed it (end of stream, or a reset), which shows as readable with no bytes to read,
 * and the request's {@link Cancellation} fires. Bytes to read mean the client sent a further,
 * pipelined request: it is still there, and that connection is left alone. The watcher never reads,
 * so Jetty's own reading of the connection is unchanged.
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

    private final Queue<Runnable> changes = new ConcurrentLinkedQueue<>();
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
        SocketChannel channel = channelOf(request);
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
                            registered.cancel();
                        }
                    });
            watching.wakeup();
        };
    }

    /**
     * The socket of a request's connection, or null where there is none to watch (not TCP, or not
     * Jetty's).
     */
    private static SocketChannel channelOf(HttpServletRequest request) {
        ServletContextRequest jettyRequest =
                ServletContextRequest.getServletContextRequest(request);
        if (jettyRequest == null) {
            return null;
        }
        Connection connection = jettyRequest.getConnectionMetaData().getConnection();
        EndPoint endPoint = connection == null ? null : connection.getEndPoint();
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
            } catch (IOException | RuntimeException e) {
                // One failed look (a key cancelled under it, say) must not end the watching.
                if (!selector.isOpen()) {
                    return;
                }
            }
        }
    }

    private static void look(SelectionKey key) {
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
        if (available > 0) {
            // A pipelined request: the client is there. Jetty reads it once this answer is out.
            key.interestOps(0);
        } else {
            key.cancel();
            cancellation.cancel(CLIENT_GONE);
        }
    }
}
