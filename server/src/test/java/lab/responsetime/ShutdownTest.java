package lab.responsetime;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * SIGTERM while CM4 sorts 100,000 Books (a minute of work) and brotli 11 compresses 100,000 Videos
 * (which holds back its output for seconds, so nothing of that body has left): the server cancels
 * both, answers both clients 503, and the process exits within 5 s — a real server process, as
 * {@code mvn exec:java} runs it, stopped the way a terminal or a supervisor stops it.
 */
class ShutdownTest {
    private static final int SIZE = 100_000;
    private static final Duration EXITS_WITHIN = Duration.ofSeconds(5);

    private final HttpClient http =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @Test
    void sigtermDuringHeavyWorkCancelsItAndExitsPromptly() throws Exception {
        int port = freePort();
        int adminPort = freePort();
        Process server =
                new ProcessBuilder(
                                List.of(
                                        Path.of(System.getProperty("java.home"), "bin", "java")
                                                .toString(),
                                        "-Ddw.dataset.size=" + SIZE,
                                        "-Ddw.dataset.directory=target/shutdown-data",
                                        "-Ddw.server.applicationConnectors[0].port=" + port,
                                        "-Ddw.server.adminConnectors[0].port=" + adminPort,
                                        "-Ddw.computation.maxConcurrent=2",
                                        "-Ddw.server.requestLog.appenders[0].threshold=OFF",
                                        "-Ddw.logging.level=WARN",
                                        "-cp",
                                        System.getProperty("java.class.path"),
                                        LabApplication.class.getName(),
                                        "server"))
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                        .start();
        try {
            URI base = URI.create("http://127.0.0.1:" + port);
            awaitReady(server, base);
            CompletableFuture<HttpResponse<String>> heavy =
                    http.sendAsync(
                            HttpRequest.newBuilder(
                                            base.resolve("/api/books?count=" + SIZE + "&cm=4"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            CompletableFuture<HttpResponse<String>> compressing =
                    http.sendAsync(
                            HttpRequest.newBuilder(
                                            base.resolve(
                                                    "/api/videos?count="
                                                            + SIZE
                                                            + "&compression=br&level=11"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            URI metrics = URI.create("http://127.0.0.1:" + adminPort + "/metrics");
            while (new ObjectMapper()
                            .readTree(
                                    http.send(
                                                    HttpRequest.newBuilder(metrics).build(),
                                                    HttpResponse.BodyHandlers.ofString())
                                            .body())
                            .path("gauges")
                            .path("computations.running")
                            .path("value")
                            .asInt()
                    < 2) {
                assertThat(heavy).as("CM4 on 100,000 Books is still sorting").isNotDone();
                assertThat(compressing)
                        .as("brotli 11 on 100,000 Videos is still compressing")
                        .isNotDone();
                Thread.sleep(20);
            }

            long stopped = System.nanoTime();
            server.destroy(); // SIGTERM
            assertThat(server.waitFor(EXITS_WITHIN.toMillis(), TimeUnit.MILLISECONDS))
                    .as("exited within " + EXITS_WITHIN)
                    .isTrue();
            for (CompletableFuture<HttpResponse<String>> cancelled : List.of(heavy, compressing)) {
                HttpResponse<String> answer = cancelled.get(1, TimeUnit.SECONDS);
                assertThat(answer.statusCode()).isEqualTo(503);
                assertThat(answer.body()).contains("the server is shutting down");
            }
            assertThat(Duration.ofNanos(System.nanoTime() - stopped)).isLessThan(EXITS_WITHIN);
        } finally {
            server.destroyForcibly();
        }
    }

    private void awaitReady(Process server, URI base) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        for (String kind : List.of("books", "videos")) {
            while (true) {
                assertThat(server.isAlive()).as("the server process is running").isTrue();
                assertThat(System.nanoTime()).as("ready within 90 s").isLessThan(deadline);
                try {
                    if (http.send(
                                            HttpRequest.newBuilder(
                                                            base.resolve(
                                                                    "/api/" + kind + "?count=1"))
                                                    .build(),
                                            HttpResponse.BodyHandlers.discarding())
                                    .statusCode()
                            == 200) {
                        break;
                    }
                } catch (IOException notListeningYet) {
                    // starting
                }
                Thread.sleep(100);
            }
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
