package lab.responsetime.jetty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.dropwizard.testing.DropwizardTestSupport;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import lab.responsetime.LabConfiguration;
import org.eclipse.jetty.client.HttpClient;
import org.junit.jupiter.api.Test;

/**
 * A server stops within seconds of being told to while an HTTP/3 client it was answering has
 * vanished, as a killed browser does: the client's datagrams go through a relay that, mid-answer,
 * drops every datagram both ways, so the server hears nothing more, neither acknowledgements nor a
 * close. Jetty's graceful stop would wait for that session to the end of the shutdown grace period
 * (Dropwizard's default, 30 s); the lab's is 2 s (docs/configuration.md), after which Jetty stops
 * anyway, releases the UDP port, and reports that the grace ran out.
 */
class Http3ShutdownIntegrationTest {
    /** The bound: a server stops within 5 s of SIGTERM with HTTP/3 in use. */
    private static final Duration STOP_BOUND = Duration.ofSeconds(5);

    @Test
    void aServerStopsWithinSecondsWhenItsHttp3ClientVanishedMidAnswer() throws Exception {
        assumeTrue(
                Http3IntegrationTest.quicheBuilt(),
                "no "
                        + Http3IntegrationTest.QUICHE.resolve(QuicheLibrary.FILE_NAME)
                        + " (scripts/quiche.sh builds it)");
        DropwizardTestSupport<LabConfiguration> app =
                Http3IntegrationTest.app(
                        "dataset.size", "20000", "dataset.directory", "target/it-data-h3-stop");
        app.before();
        int h3Port =
                Http3IntegrationTest.h3Entry(Http3IntegrationTest.info(app)).get("port").asInt();
        HttpClient client = Http3IntegrationTest.newHttp3Client();
        try (Relay relay = new Relay(h3Port)) {
            client.start();
            // 20,000 Books (several MB); the client takes the first chunk and asks for no more,
            // so the answer stays in progress.
            CountDownLatch answering = new CountDownLatch(1);
            client.newRequest(
                            "https://127.0.0.1:"
                                    + relay.port()
                                    + "/api/books?count=20000&format=json")
                    .onResponseContentAsync((response, chunk, demand) -> answering.countDown())
                    .send(result -> {});
            assertThat(answering.await(60, TimeUnit.SECONDS)).as("the answer began").isTrue();
            relay.cut();

            long started = System.nanoTime();
            try {
                app.after();
            } catch (RuntimeException e) {
                // Jetty stops all the same when the grace runs out, and then reports it.
                assertThat(e).hasRootCauseInstanceOf(TimeoutException.class);
            }
            Duration stop = Duration.ofNanos(System.nanoTime() - started);
            assertThat(stop).isLessThan(STOP_BOUND);
            // The h3 port is free again: a next server can bind it.
            new DatagramSocket(new InetSocketAddress("127.0.0.1", h3Port)).close();
        } finally {
            // The client's session is gone with the relay: stop it without waiting for it.
            Thread stopper = new Thread(() -> stopQuietly(client), "h3-client-stop");
            stopper.setDaemon(true);
            stopper.start();
        }
    }

    private static void stopQuietly(HttpClient client) {
        try {
            client.stop();
        } catch (Exception e) {
            // nothing to do: the test is over
        }
    }

    /**
     * A UDP relay on the loopback between one client and the server's h3 port, until {@link
     * #cut()}: then it drops every datagram.
     */
    private static final class Relay implements AutoCloseable {
        private final DatagramSocket clientSide;
        private final DatagramSocket serverSide;
        private final SocketAddress server;
        private volatile SocketAddress client;
        private volatile boolean cut;

        Relay(int serverPort) throws IOException {
            InetAddress loopback = InetAddress.getByName("127.0.0.1");
            clientSide = new DatagramSocket(new InetSocketAddress(loopback, 0));
            serverSide = new DatagramSocket(new InetSocketAddress(loopback, 0));
            server = new InetSocketAddress(loopback, serverPort);
            start("relay-from-client", clientSide, true);
            start("relay-from-server", serverSide, false);
        }

        int port() {
            return clientSide.getLocalPort();
        }

        void cut() {
            cut = true;
        }

        private void start(String name, DatagramSocket from, boolean fromClient) {
            Thread thread =
                    new Thread(
                            () -> {
                                byte[] buffer = new byte[65536];
                                while (!from.isClosed()) {
                                    DatagramPacket packet =
                                            new DatagramPacket(buffer, buffer.length);
                                    try {
                                        from.receive(packet);
                                        if (cut) {
                                            continue;
                                        }
                                        if (fromClient) {
                                            client = packet.getSocketAddress();
                                            packet.setSocketAddress(server);
                                            serverSide.send(packet);
                                        } else if (client != null) {
                                            packet.setSocketAddress(client);
                                            clientSide.send(packet);
                                        }
                                    } catch (IOException e) {
                                        // closed, or a datagram lost: the relay goes on or ends
                                    }
                                }
                            },
                            name);
            thread.setDaemon(true);
            thread.start();
        }

        @Override
        public void close() {
            clientSide.close();
            serverSide.close();
        }
    }
}
