package lab.responsetime.jetty;

import com.codahale.metrics.MetricRegistry;
import io.dropwizard.jetty.HttpsConnectorFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.ClosedChannelException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.EventListener;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.eclipse.jetty.http3.server.HTTP3ServerConnectionFactory;
import org.eclipse.jetty.http3.server.HTTP3ServerQuicConfiguration;
import org.eclipse.jetty.quic.api.Session;
import org.eclipse.jetty.quic.api.frames.ConnectionCloseFrame;
import org.eclipse.jetty.quic.quiche.server.QuicheServerConnector;
import org.eclipse.jetty.quic.quiche.server.QuicheServerQuicConfiguration;
import org.eclipse.jetty.quic.util.ErrorCode;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.Promise;
import org.eclipse.jetty.util.component.LifeCycle;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.ThreadPool;

/**
 * HTTP/3 over QUIC on a UDP port: Jetty's QUIC connector on quiche ({@link QuicheLibrary}) with
 * Jetty's HTTP/3, taking its port, interface, key store and HTTP settings as Dropwizard's HTTPS
 * connector does. quiche reads the key and certificate from PEM files, which Jetty writes from the
 * key store into a work folder beside the key store, readable by this user only, removed when the
 * connector stops.
 *
 * <p>When the server stops, a QUIC session still open {@link #GOAWAY_WAIT} after HTTP/3's GOAWAY is
 * ended at the QUIC level (CONNECTION_CLOSE), and the connector's stop waits {@link
 * #DISCONNECT_WAIT} at most for the sessions to close. Jetty's own stop closes them through HTTP/3,
 * whose GOAWAY waits to be sent: a client that vanished (a killed browser) acknowledges nothing, so
 * the stop waited until the session's idle timeout (30 s) ended it.
 */
public final class Http3ConnectorFactory extends HttpsConnectorFactory {
    /**
     * How long sessions have, once the server stops, to end by HTTP/3's GOAWAY; then they are ended
     * at the QUIC level. Less than the server's grace (LabConfiguration.DEFAULT_SHUTDOWN_GRACE).
     */
    static final Duration GOAWAY_WAIT = Duration.ofMillis(500);

    /** How long a stopping connector waits for its sessions to close once it has ended them. */
    static final Duration DISCONNECT_WAIT = Duration.ofSeconds(1);

    @Override
    public Connector build(
            Server server, MetricRegistry metrics, String name, ThreadPool threadPool) {
        SslContextFactory.Server tls = configureSslContextFactory(new SslContextFactory.Server());
        Path pemDirectory;
        try {
            // Beside the key store, which holds the same key: a folder a killed server leaves
            // behind discloses nothing the key store's folder does not.
            Path keyStoreFolder = Path.of(getKeyStorePath()).toAbsolutePath().getParent();
            pemDirectory = Files.createTempDirectory(keyStoreFolder, "quic-pem-");
        } catch (IOException e) {
            throw new UncheckedIOException("no work folder for QUIC's PEM files", e);
        }
        QuicheServerQuicConfiguration quic =
                HTTP3ServerQuicConfiguration.configure(
                        new QuicheServerQuicConfiguration(pemDirectory));
        HttpConfiguration http = buildHttpConfiguration();
        // Dropwizard's HTTPS settings add Jetty's SecureRequestCustomizer, which reads TLS's
        // session from the request's connection; a QUIC connection has none, and the customizer's
        // attributes then throw (listing a request's attributes fails, as the request log does).
        http.getCustomizers().removeIf(SecureRequestCustomizer.class::isInstance);
        OpenSessions open = new OpenSessions();
        quic.addEventListener(open);
        QuicheServerConnector connector =
                new QuicheServerConnector(
                        server, tls, quic, new HTTP3ServerConnectionFactory(http)) {
                    @Override
                    public CompletableFuture<Void> shutdown() {
                        CompletableFuture<Void> graceful = super.shutdown();
                        // Sessions whose clients answer end within milliseconds; those that do
                        // not are ended here, so that they are closed by the time the server's
                        // grace (server.shutdownGracePeriod) runs out and the connector stops.
                        getScheduler()
                                .schedule(
                                        () -> {
                                            if (!graceful.isDone()) {
                                                open.disconnectAll();
                                            }
                                        },
                                        GOAWAY_WAIT.toMillis(),
                                        TimeUnit.MILLISECONDS);
                        return graceful;
                    }

                    @Override
                    protected void doStop() throws Exception {
                        open.disconnectAll();
                        open.awaitClosed(DISCONNECT_WAIT);
                        super.doStop();
                    }
                };
        connector.setName(name);
        connector.setHost(getBindHost());
        connector.setPort(getPort());
        connector.addEventListener(
                new LifeCycle.Listener() {
                    @Override
                    public void lifeCycleStopped(LifeCycle event) {
                        deleteTree(pemDirectory);
                    }
                });
        return connector;
    }

    /** The connector's open QUIC sessions, as its QUIC configuration reports them. */
    private static final class OpenSessions implements Session.Listener, EventListener {
        private final Set<Session> sessions = ConcurrentHashMap.newKeySet();

        @Override
        public void onOpen(Session session) {
            sessions.add(session);
        }

        @Override
        public void onDisconnect(Session session) {
            sessions.remove(session);
        }

        private final Map<Session, CompletableFuture<Session>> closing = new ConcurrentHashMap<>();

        /** Ends every open session not already being ended, at once, without waiting. */
        void disconnectAll() {
            for (Session session : List.copyOf(sessions)) {
                closing.computeIfAbsent(
                        session,
                        s -> {
                            CompletableFuture<Session> done = new CompletableFuture<>();
                            s.disconnect(
                                    new ConnectionCloseFrame(
                                            ErrorCode.NO_ERROR.code(), "server stopping"),
                                    new ClosedChannelException(),
                                    Promise.Invocable.toPromise(done));
                            return done;
                        });
            }
        }

        /** Returns once the ended sessions closed, or after {@code wait}. */
        void awaitClosed(Duration wait) throws InterruptedException {
            try {
                CompletableFuture.allOf(closing.values().toArray(CompletableFuture[]::new))
                        .get(wait.toMillis(), TimeUnit.MILLISECONDS);
            } catch (ExecutionException | TimeoutException e) {
                // Stopping goes on: what did not close in time is dropped with the connector.
            }
        }
    }

    private static void deleteTree(Path directory) {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not remove QUIC's PEM folder " + directory, e);
        }
    }
}
