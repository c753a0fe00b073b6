package lab.responsetime.resources;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import lab.responsetime.LabConfiguration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Work that nobody waits for is not done, against the real server: a client that leaves while its
 * computation runs or waits frees the slot or the place in the queue within a second, and while a
 * heavy compression runs within two; HEAD never computes; and a burst of every kind of request,
 * aborted ones included, leaves no slot taken. Computations here run on 70,000 Books (one CM4 takes
 * tens of seconds), with one slot and one place in the queue.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class AbandonedWorkIntegrationTest {
    private static final int SIZE = 70_000;

    /** Admits CM4 on 70,000 Books (~7.8e8), refuses CM5 on them (~7.8e9). */
    private static final String BUDGET = "5e9";

    private static final String HEAVY = "/api/books?count=" + SIZE + "&cm=4";
    private static final Duration FREED_WITHIN = Duration.ofSeconds(1);

    /**
     * A compressor's step cannot be interrupted: brotli 11 compresses up to about 0.9 s of input in
     * one step before the body writer can stop.
     */
    private static final Duration COMPRESSION_STOPPED_WITHIN = Duration.ofSeconds(2);

    private static final ObjectMapper JSON = new ObjectMapper();

    private static final DropwizardAppExtension<LabConfiguration> APP =
            TestApplication.boot(
                    SIZE,
                    "target/it-abandoned-data",
                    ConfigOverride.config("server.requestLog.appenders[0].threshold", "OFF"),
                    ConfigOverride.config("computation.maxSortWork", BUDGET),
                    ConfigOverride.config("computation.maxConcurrent", "1"),
                    ConfigOverride.config("computation.maxQueued", "1"));

    private final HttpClient http = TestApplication.http11();
    private final List<Socket> sockets = new ArrayList<>();

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
        awaitMetrics(0, 0, Duration.ofSeconds(5));
    }

    @Test
    void aComputationWhoseClientLeavesStopsAndItsSlotIsFreeWithinASecond() throws Exception {
        Socket heavy = send("GET", HEAVY);
        awaitMetrics(1, 1, Duration.ofSeconds(5));
        heavy.close();
        awaitMetrics(0, 0, FREED_WITHIN);

        Socket next = send("GET", HEAVY);
        awaitMetrics(1, 1, Duration.ofSeconds(2));
        next.close();
        awaitMetrics(0, 0, FREED_WITHIN);
    }

    @Test
    void aQueuedRequestWhoseClientLeavesGivesUpItsPlace() throws Exception {
        Socket running = send("GET", HEAVY);
        awaitMetrics(1, 1, Duration.ofSeconds(5));
        Socket queued = send("GET", "/api/videos?count=100&cm=1");
        awaitMetrics(1, 2, Duration.ofSeconds(5));
        assertJsonError(get("/api/videos?count=10&cm=1"), 503, "places in the queue are taken");

        queued.close();
        awaitMetrics(1, 1, FREED_WITHIN);
        running.close();
        awaitMetrics(0, 0, FREED_WITHIN);
    }

    @Test
    void aClientThatResetsItsConnectionIsNoticedToo() throws Exception {
        Socket heavy = send("GET", HEAVY);
        awaitMetrics(1, 1, Duration.ofSeconds(5));
        heavy.setSoLinger(true, 0); // close with RST instead of FIN, as a killed process may
        heavy.close();
        awaitMetrics(0, 0, FREED_WITHIN);
    }

    /**
     * Brotli 11 holds back its whole output for seconds (nothing leaves for 70,000 Videos before
     * ~10 s of compressing), so no write to the connection could notice a client that left: the
     * watcher does, and the compression stops.
     */
    @Test
    void aHeavyCompressionWhoseClientLeavesBeforeItsFirstByteStopsAndFreesItsSlot()
            throws Exception {
        Socket heavy = send("GET", "/api/videos?count=" + SIZE + "&compression=br&level=11");
        awaitMetrics(1, 1, Duration.ofSeconds(5));
        Thread.sleep(500);
        assertThat(heavy.getInputStream().available())
                .as("nothing has left yet: not even the headers")
                .isZero();
        heavy.close();
        awaitMetrics(0, 0, COMPRESSION_STOPPED_WITHIN);

        Socket reset =
                send("GET", "/api/books?count=" + SIZE + "&format=xml&compression=zstd&level=19");
        awaitMetrics(1, 1, Duration.ofSeconds(5));
        reset.setSoLinger(true, 0);
        reset.close();
        awaitMetrics(0, 0, COMPRESSION_STOPPED_WITHIN);
    }

    @Test
    void aHeavyCompressionWhoseClientLeavesMidBodyStopsAndFreesItsSlot() throws Exception {
        Socket heavy = send("GET", "/api/books?count=" + SIZE + "&compression=zstd&level=19");
        assertThat(heavy.getInputStream().readNBytes(1000)).hasSize(1000);
        assertThat(metric("computations.running")).as("still compressing").isEqualTo(1);
        heavy.close();
        awaitMetrics(0, 0, COMPRESSION_STOPPED_WITHIN);
    }

    @Test
    void headAnswersAtOnceWithGetsStatusAndHeadersButNoWork() throws Exception {
        Socket busy = send("GET", HEAVY);
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
        abandoned.add(send("GET", HEAVY)); // aborted mid-sort
        awaitMetrics(1, 1, Duration.ofSeconds(5));
        answered.add(getAsync("/api/books?count=3000&cm=3")); // queued, answered later
        for (int i = 0; i < 4; i++) {
            answered.add(getAsync("/api/books?count=2000&cm=2")); // past capacity: 503
            answered.add(getAsync("/api/videos?count=" + SIZE + "&cm=5")); // over the budget: 422
            answered.add(getAsync("/api/books?count=10&format=protobuf")); // small, no computation
            answered.add(getAsync("/api/videos?count=100&format=xml&compression=gzip"));
        }
        Socket midBody =
                send("GET", "/api/books?count=" + SIZE + "&format=xml"); // aborted mid-body
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

    /** Opens a connection and sends a request on it, without reading the answer. */
    private Socket send(String method, String pathAndQuery) throws IOException {
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

    private int metric(String gauge) throws Exception {
        URI metrics = URI.create("http://127.0.0.1:" + APP.getAdminPort() + "/metrics");
        JsonNode body =
                JSON.readTree(
                        http.send(
                                        HttpRequest.newBuilder(metrics).build(),
                                        HttpResponse.BodyHandlers.ofByteArray())
                                .body());
        return body.path("gauges").path(gauge).path("value").asInt(-1);
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
