package lab.responsetime.resources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import lab.responsetime.LabConfiguration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Work that nobody waits for is not done, against the real server: a client that leaves while its
 * computation runs or waits frees the slot or the place in the queue within a second, over every
 * protocol (cleartext HTTP/1.1, HTTP/1.1 with TLS, HTTP/2, HTTP/3), whether it closes its
 * connection or resets it (over HTTP/2 and HTTP/3: resets the request's stream), and while a heavy
 * compression runs within two; a pipelined request is a client still there; HEAD never computes;
 * and a burst of every kind of request, aborted ones included, leaves no slot taken. Computations
 * here run on 70,000 Books (one CM4 takes tens of seconds), with one slot and one place in the
 * queue.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class AbandonedWorkIntegrationTest {
    private static final int SIZE = 70_000;

    /** Admits CM4 on 70,000 Books (~7.8e8), refuses CM5 on them (~7.8e9). */
    private static final String BUDGET = "5e9";

    private static final String HEAVY = "/api/books?count=" + SIZE + "&cm=4";

    /**
     * The promise under test, with its margin: the connection watcher wakes on the close at once,
     * and a sort of 70,000 Books (a few tens of milliseconds each on this machine kind) sees its
     * cancellation at its next check; a second is ten times that and more, for a shared machine.
     */
    private static final Duration FREED_WITHIN = Duration.ofSeconds(1);

    /**
     * A compressor's step cannot be interrupted: brotli 11 compresses up to about 0.9 s of input in
     * one step before the body writer can stop.
     */
    private static final Duration COMPRESSION_STOPPED_WITHIN = Duration.ofSeconds(2);

    /**
     * The margin an abandoned request gets to end: it ends when its computation sees its client
     * gone or its next write fails. With the machine shared (the whole suite on 2 cores) the last
     * of a burst's took longer than the server's 2 s stop grace, and the stop after the last test
     * then failed with a TimeoutException; 10 s is five times that grace. A request that outlives
     * it is work nobody waits for, and fails the test that left it.
     */
    private static final Duration REQUESTS_END_WITHIN = Duration.ofSeconds(10);

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path TLS = Path.of("target/it-tls-abandoned");

    static {
        TestApplication.makeTlsKey(TLS);
    }

    private static final DropwizardAppExtension<LabConfiguration> APP =
            TestApplication.boot(
                    SIZE,
                    "target/it-abandoned-data",
                    ConfigOverride.config("server.requestLog.appenders[0].threshold", "OFF"),
                    ConfigOverride.config("computation.maxSortWork", BUDGET),
                    ConfigOverride.config("computation.maxConcurrent", "1"),
                    ConfigOverride.config("computation.maxQueued", "1"),
                    ConfigOverride.config("tls.keyStore", TLS.resolve("localhost.p12").toString()),
                    ConfigOverride.config("tls.http11Port", "0"),
                    ConfigOverride.config("tls.h2Port", "0"),
                    ConfigOverride.config("tls.h3Port", "0"),
                    ConfigOverride.config(
                            "tls.quicheDirectory",
                            Path.of("../tools/quiche").toAbsolutePath().toString()));

    private final HttpClient http = TestApplication.http11();
    private final List<Socket> sockets = new ArrayList<>();
    private final List<LeavingClients.Leaving> clients = new ArrayList<>();

    @BeforeEach
    void datasetsLoaded() throws Exception {
        TestApplication.awaitDatasets(APP, http, Duration.ofSeconds(60));
        awaitMetrics(0, 0, Duration.ofSeconds(5));
    }

    @AfterEach
    void closeSockets() throws Exception {
        for (Socket socket : sockets) {
            socket.close();
        }
        for (LeavingClients.Leaving client : clients) {
            client.release();
        }
        awaitMetrics(0, 0, Duration.ofSeconds(5));
        awaitNoRequestInFlight();
    }

    private void awaitNoRequestInFlight() throws Exception {
        long deadline = System.nanoTime() + REQUESTS_END_WITHIN.toNanos();
        int inFlight;
        while ((inFlight = activeRequests()) != 0) {
            assertThat(System.nanoTime())
                    .as(inFlight + " requests still in flight after " + REQUESTS_END_WITHIN)
                    .isLessThan(deadline);
            Thread.sleep(10);
        }
    }

    @ParameterizedTest(name = "over {0}")
    @FieldSource("lab.responsetime.resources.LeavingClients#PROTOCOLS")
    void aComputationWhoseClientClosesItsConnectionStopsAndItsSlotIsFreeWithinASecond(
            String protocol) throws Exception {
        LeavingClients.Leaving heavy = send(protocol, HEAVY);
        awaitMetrics(1, 1, Duration.ofSeconds(5));
        heavy.close();
        awaitMetrics(0, 0, FREED_WITHIN);

        LeavingClients.Leaving next = send(protocol, HEAVY);
        awaitMetrics(1, 1, Duration.ofSeconds(5));
        next.close();
        awaitMetrics(0, 0, FREED_WITHIN);
    }

    /**
     * Over HTTP/1.1 a TCP reset, as a killed process's connection may end; over HTTP/2 and HTTP/3 a
     * reset of the request's stream on a connection that stays open, as a browser's aborted fetch
     * sends.
     */
    @ParameterizedTest(name = "over {0}")
    @FieldSource("lab.responsetime.resources.LeavingClients#PROTOCOLS")
    void aClientThatResetsIsNoticedToo(String protocol) throws Exception {
        assumeFalse(
                protocol.equals("h3"),
                "quiche does not report a reset of a stream whose request has arrived whole, and"
                        + " Jetty learns of it only at its next write (docs/protocols.md)");
        LeavingClients.Leaving heavy = send(protocol, HEAVY);
        awaitMetrics(1, 1, Duration.ofSeconds(5));
        heavy.reset();
        awaitMetrics(0, 0, FREED_WITHIN);
    }

    @ParameterizedTest(name = "over {0}")
    @FieldSource("lab.responsetime.resources.LeavingClients#PROTOCOLS")
    void aQueuedRequestWhoseClientLeavesGivesUpItsPlace(String protocol) throws Exception {
        LeavingClients.Leaving running = send(protocol, HEAVY);
        awaitMetrics(1, 1, Duration.ofSeconds(5));
        LeavingClients.Leaving queued = send(protocol, "/api/videos?count=100&cm=1");
        awaitMetrics(1, 2, Duration.ofSeconds(5));
        assertJsonError(get("/api/videos?count=10&cm=1"), 503, "places in the queue are taken");

        queued.close();
        awaitMetrics(1, 1, FREED_WITHIN);
        running.close();
        awaitMetrics(0, 0, FREED_WITHIN);
    }

    /**
     * A second request sent behind the first on the same connection (HTTP/1.1 pipelining) is a
     * client still there: the bytes the watcher sees are not a departure, and both are answered.
     */
    @ParameterizedTest(name = "over {0}")
    @ValueSource(strings = {"http1.1", "http1.1-tls"})
    void aPipelinedRequestIsAClientStillThere(String protocol) throws Exception {
        String sorting = "/api/books?count=20000&cm=3";
        byte[] both =
                ("GET "
                                + sorting
                                + " HTTP/1.1\r\nHost: localhost\r\n\r\n"
                                + "GET /api/books?count=1 HTTP/1.1\r\nHost: localhost\r\n"
                                + "Connection: close\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII);
        Socket socket =
                protocol.equals("http1.1")
                        ? new Socket("127.0.0.1", APP.getLocalPort())
                        : TestApplication.trustingOnly(TLS.resolve("localhost.pem"))
                                .getSocketFactory()
                                .createSocket("localhost", port(protocol));
        sockets.add(socket);
        socket.setSoTimeout(60_000);
        socket.getOutputStream().write(both);
        socket.getOutputStream().flush();
        String answers =
                new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        assertThat(answers).startsWith("HTTP/1.1 200 ");
        assertThat(answers.split("HTTP/1.1 200 ", -1))
                .as("two answers, both 200: the sorting one was not given up")
                .hasSize(3);
        assertThat(answers).contains("sort;dur=");
    }

    /**
     * Brotli 11 holds back its whole output for seconds (nothing leaves for 70,000 Videos before
     * ~10 s of compressing), so no write to the connection could notice a client that left: the
     * watcher does, and the compression stops.
     */
    @Test
    void aHeavyCompressionWhoseClientLeavesBeforeItsFirstByteStopsAndFreesItsSlot()
            throws Exception {
        Socket heavy =
                sendCleartext("GET", "/api/videos?count=" + SIZE + "&compression=br&level=11");
        awaitMetrics(1, 1, Duration.ofSeconds(5));
        Thread.sleep(500);
        assertThat(heavy.getInputStream().available())
                .as("nothing has left yet: not even the headers")
                .isZero();
        heavy.close();
        awaitMetrics(0, 0, COMPRESSION_STOPPED_WITHIN);

        Socket reset =
                sendCleartext(
                        "GET",
                        "/api/books?count=" + SIZE + "&format=xml&compression=zstd&level=19");
        awaitMetrics(1, 1, Duration.ofSeconds(5));
        reset.setSoLinger(true, 0);
        reset.close();
        awaitMetrics(0, 0, COMPRESSION_STOPPED_WITHIN);
    }

    @Test
    void aHeavyCompressionWhoseClientLeavesMidBodyStopsAndFreesItsSlot() throws Exception {
        Socket heavy =
                sendCleartext("GET", "/api/books?count=" + SIZE + "&compression=zstd&level=19");
        assertThat(heavy.getInputStream().readNBytes(1000)).hasSize(1000);
        assertThat(metric("computations.running")).as("still compressing").isEqualTo(1);
        heavy.close();
        awaitMetrics(0, 0, COMPRESSION_STOPPED_WITHIN);
    }

    @Test
    void headAnswersAtOnceWithGetsStatusAndHeadersButNoWork() throws Exception {
        Socket busy = sendCleartext("GET", HEAVY);
        awaitMetrics(1, 1, Duration.ofSeconds(5));
        HttpResponse<byte[]> head =
                http.send(
                        HttpRequest.newBuilder(uri(HEAVY + "&format=xml&compression=gzip"))
                                .method("HEAD", HttpRequest.BodyPublishers.noBody())
                                .timeout(Duration.ofSeconds(5))
                                .build(),
                        HttpResponse.BodyHandlers.ofByteArray());
        assertThat(head.statusCode()).isEqualTo(200);
        assertThat(head.headers().firstValue("Content-Type")).hasValue("application/xml");
        assertThat(head.headers().firstValue("Content-Encoding")).hasValue("gzip");
        assertThat(head.headers().firstValue("Cache-Control")).hasValue("no-store");
        assertThat(head.headers().firstValue("Content-Length"))
                .as("the body was never made")
                .isEmpty();
        assertThat(head.headers().firstValue("Server-Timing")).isEmpty();
        assertThat(head.body()).isEmpty();
        assertThat(metric("computations.admitted"))
                .as("HEAD took no slot and no place")
                .isEqualTo(1);

        HttpResponse<byte[]> refused =
                http.send(
                        HttpRequest.newBuilder(uri("/api/books?count=" + SIZE + "&cm=5"))
                                .method("HEAD", HttpRequest.BodyPublishers.noBody())
                                .build(),
                        HttpResponse.BodyHandlers.ofByteArray());
        assertThat(refused.statusCode()).as("as GET would: over the budget").isEqualTo(422);
        busy.close();
    }

    @Test
    void aBurstOfEveryKindOfRequestLeavesNoSlotTaken() throws Exception {
        List<CompletableFuture<HttpResponse<byte[]>>> answered = new ArrayList<>();
        List<Socket> abandoned = new ArrayList<>();
        abandoned.add(sendCleartext("GET", HEAVY)); // aborted mid-sort
        awaitMetrics(1, 1, Duration.ofSeconds(5));
        answered.add(getAsync("/api/books?count=3000&cm=3")); // queued, answered later
        for (int i = 0; i < 4; i++) {
            answered.add(getAsync("/api/books?count=2000&cm=2")); // past capacity: 503
            answered.add(getAsync("/api/videos?count=" + SIZE + "&cm=5")); // over the budget: 422
            answered.add(getAsync("/api/books?count=10&format=protobuf")); // small, no computation
            answered.add(getAsync("/api/videos?count=100&format=xml&compression=gzip"));
        }
        Socket midBody =
                sendCleartext(
                        "GET", "/api/books?count=" + SIZE + "&format=xml"); // aborted mid-body
        InputStream body = midBody.getInputStream();
        assertThat(body.readNBytes(1000)).hasSize(1000);
        abandoned.add(midBody);
        for (Socket socket : abandoned) {
            socket.close();
        }
        for (CompletableFuture<HttpResponse<byte[]>> answer : answered) {
            assertThat(answer.get(60, TimeUnit.SECONDS).statusCode()).isIn(200, 422, 503);
        }
        awaitMetrics(0, 0, Duration.ofSeconds(5));

        long started = System.nanoTime();
        HttpResponse<byte[]> small = get("/api/videos?count=10&cm=1");
        assertThat(small.statusCode()).isEqualTo(200);
        assertThat(small.headers().firstValue("Server-Timing").orElseThrow())
                .contains("queue;dur=0.");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(1));
    }

    /**
     * Sends a GET over {@code protocol} (skipping the test where the server does not serve it, as
     * /api/info says why), without reading the answer.
     */
    private LeavingClients.Leaving send(String protocol, String pathAndQuery) throws Exception {
        LeavingClients.Leaving client =
                switch (protocol) {
                    case "http1.1" -> LeavingClients.http11(port(protocol), pathAndQuery);
                    case "http1.1-tls" ->
                            LeavingClients.http11Tls(tls(), port(protocol), pathAndQuery);
                    case "h2" -> LeavingClients.h2(tls(), port(protocol), pathAndQuery);
                    case "h3" ->
                            LeavingClients.h3(
                                    port(protocol),
                                    pathAndQuery,
                                    Path.of("target/it-abandoned-h3-client-pem"));
                    default -> throw new IllegalArgumentException(protocol);
                };
        clients.add(client);
        return client;
    }

    private static SSLContext tls() throws Exception {
        return TestApplication.trustingOnly(TLS.resolve("localhost.pem"));
    }

    /** The port of {@code protocol}'s connector, from /api/info; skips where it is not served. */
    private int port(String protocol) throws Exception {
        JsonNode info =
                JSON.readTree(
                        http.send(
                                        HttpRequest.newBuilder(uri("/api/info")).build(),
                                        HttpResponse.BodyHandlers.ofByteArray())
                                .body());
        for (JsonNode served : info.get("protocols")) {
            if (served.get("name").asText().equals(protocol)) {
                return served.get("port").asInt();
            }
        }
        assumeTrue(false, protocol + " is not served: " + info.path("protocols_note").asText());
        return -1;
    }

    /** Opens a cleartext connection and sends a request on it, without reading the answer. */
    private Socket sendCleartext(String method, String pathAndQuery) throws IOException {
        Socket socket = new Socket("127.0.0.1", APP.getLocalPort());
        sockets.add(socket);
        OutputStream out = socket.getOutputStream();
        out.write(
                (method + " " + pathAndQuery + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
        out.flush();
        return socket;
    }

    /** Waits until exactly {@code running} computations run and {@code admitted} are admitted. */
    private void awaitMetrics(int running, int admitted, Duration within) throws Exception {
        long deadline = System.nanoTime() + within.toNanos();
        while (true) {
            int nowRunning = metric("computations.running");
            int nowAdmitted = metric("computations.admitted");
            if (nowRunning == running && nowAdmitted == admitted) {
                return;
            }
            assertThat(System.nanoTime())
                    .as(
                            "running "
                                    + nowRunning
                                    + " → "
                                    + running
                                    + ", admitted "
                                    + nowAdmitted
                                    + " → "
                                    + admitted
                                    + " within "
                                    + within.toMillis()
                                    + " ms")
                    .isLessThan(deadline);
            Thread.sleep(10);
        }
    }

    /**
     * Requests the application's handler holds now (Dropwizard's counter; the admin port's are not
     * counted).
     */
    private int activeRequests() throws Exception {
        return metrics()
                .path("counters")
                .path("io.dropwizard.jetty.MutableServletContextHandler.active-requests")
                .path("count")
                .asInt(-1);
    }

    private JsonNode metrics() throws Exception {
        URI metrics = URI.create("http://127.0.0.1:" + APP.getAdminPort() + "/metrics");
        return JSON.readTree(
                http.send(
                                HttpRequest.newBuilder(metrics).build(),
                                HttpResponse.BodyHandlers.ofByteArray())
                        .body());
    }

    private int metric(String gauge) throws Exception {
        return metrics().path("gauges").path(gauge).path("value").asInt(-1);
    }

    private HttpResponse<byte[]> get(String pathAndQuery) throws IOException, InterruptedException {
        return http.send(
                HttpRequest.newBuilder(uri(pathAndQuery)).timeout(Duration.ofSeconds(60)).build(),
                HttpResponse.BodyHandlers.ofByteArray());
    }

    private CompletableFuture<HttpResponse<byte[]>> getAsync(String pathAndQuery) {
        return http.sendAsync(
                HttpRequest.newBuilder(uri(pathAndQuery)).timeout(Duration.ofSeconds(60)).build(),
                HttpResponse.BodyHandlers.ofByteArray());
    }

    private static URI uri(String pathAndQuery) {
        return URI.create("http://127.0.0.1:" + APP.getLocalPort() + pathAndQuery);
    }

    private static void assertJsonError(
            HttpResponse<byte[]> response, int status, String messagePart) throws IOException {
        assertThat(response.statusCode()).isEqualTo(status);
        assertThat(JSON.readTree(response.body()).path("message").asText()).contains(messagePart);
    }
}
