package lab.responsetime.resources;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import java.io.ByteArrayOutputStream;
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
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import lab.responsetime.LabConfiguration;
import lab.responsetime.core.compression.Compression;
import lab.responsetime.core.dataset.ObjectKind;
import lab.responsetime.core.formats.Format;
import lab.responsetime.core.ingest.Bombs;
import lab.responsetime.core.ingest.IngestBodies;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvFileSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The collector against the real server (Jetty, Jersey, the servlet filters), with its default
 * limits: every GET body posts back, in every format and Content-Encoding; the bad-input table;
 * limits that refuse before the body is sent, while it is sent chunked, and while a bomb inflates;
 * and a body sent slowly or abandoned half way.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class IngestIntegrationTest {
    private static final int SIZE = 1000;
    private static final long MAX_BODY_BYTES = 16L << 20;

    /**
     * A refusal that reads nothing, or inflates a few MiB, answers within this even on a busy
     * machine.
     */
    private static final Duration PROMPTLY = Duration.ofSeconds(5);

    private static final ObjectMapper JSON = new ObjectMapper();

    private static final DropwizardAppExtension<LabConfiguration> APP =
            TestApplication.boot(
                    SIZE,
                    "target/it-ingest-data",
                    ConfigOverride.config("server.requestLog.appenders[0].threshold", "OFF"));

    private final HttpClient http = TestApplication.http11();

    @BeforeEach
    void datasetsLoaded() throws Exception {
        TestApplication.awaitDatasets(APP, http, Duration.ofSeconds(30));
    }

    static Stream<Arguments> getBodies() {
        return EveryBody.atCounts(1, 10, SIZE);
    }

    @ParameterizedTest(name = "{0} {1} {2} {3}")
    @MethodSource("getBodies")
    void everyGetBodyPostsBack(
            ObjectKind<?> kind, Format format, Compression compression, int count)
            throws Exception {
        HttpResponse<byte[]> got =
                get(
                        "/api/"
                                + kind
                                + "?count="
                                + count
                                + "&format="
                                + format.parameter()
                                + "&compression="
                                + compression.parameter());
        assertThat(got.statusCode()).isEqualTo(200);
        HttpRequest.Builder post =
                HttpRequest.newBuilder(uri("/api/" + kind))
                        .timeout(Duration.ofSeconds(30))
                        .header(
                                "Content-Type",
                                got.headers().firstValue("Content-Type").orElseThrow())
                        .POST(HttpRequest.BodyPublishers.ofByteArray(got.body()));
        got.headers()
                .firstValue("Content-Encoding")
                .ifPresent(encoding -> post.header("Content-Encoding", encoding));
        HttpResponse<byte[]> posted =
                http.send(post.build(), HttpResponse.BodyHandlers.ofByteArray());

        assertThat(posted.statusCode())
                .as(new String(posted.body(), StandardCharsets.UTF_8))
                .isEqualTo(200);
        JsonNode answer = JSON.readTree(posted.body());
        assertThat(answer.get("kind").asText()).isEqualTo(kind.plural());
        assertThat(answer.get("format").asText()).isEqualTo(format.parameter());
        assertThat(answer.get("encoding").asText())
                .isEqualTo(compression == Compression.NONE ? "identity" : compression.parameter());
        assertThat(answer.get("objects").asInt()).isEqualTo(count);
        assertThat(answer.get("bytes").asLong()).isEqualTo(got.body().length);
        assertThat(posted.headers().firstValue("Server-Timing").orElseThrow())
                .startsWith("receive;dur=")
                .contains("decode;dur=")
                .matches(
                        timing ->
                                timing.contains("inflate;dur=")
                                        == (compression != Compression.NONE));
    }

    /**
     * Bodies: {@code B} a valid Book as JSON, {@code B(field:literal)} one with that field's value
     * replaced; {@code {E}} / {@code {A}} a valid Book as XML with elements / attributes; {@code
     * RAW:} the text as it is. The body is compressed as the encoding says (only a known one).
     */
    @ParameterizedTest(name = "{0} {1} {2} → {3}")
    @CsvFileSource(
            resources = "/cases/IngestIntegrationTest.answersEveryBodyWithTheFirstProblemNamed.csv",
            delimiter = '|',
            quoteCharacter = '`',
            nullValues = "-")
    void answersEveryBodyWithTheFirstProblemNamed(
            String contentType,
            String encoding,
            String template,
            int status,
            Integer object,
            String field,
            String message)
            throws Exception {
        byte[] plain =
                template.startsWith("RAW:")
                        ? template.substring(4).getBytes(StandardCharsets.UTF_8)
                        : template.contains("<")
                                ? IngestBodies.xml(template)
                                : IngestBodies.json(template);
        byte[] body =
                Compression.forContentEncoding(encoding)
                        .map(e -> IngestBodies.compress(e, plain))
                        .orElse(plain);
        if (template.startsWith("RAW:") && !template.equals("RAW:[]")) {
            body = plain; // sent as it is, whatever the encoding says
        }
        HttpResponse<byte[]> response = post("/api/books", contentType, encoding, body);
        assertThat(response.statusCode())
                .as(new String(response.body(), StandardCharsets.UTF_8))
                .isEqualTo(status);
        if (status == 200) {
            return;
        }
        JsonNode error = error(response, status, message);
        assertThat(error.has("object") ? error.get("object").asInt() : null).isEqualTo(object);
        assertThat(error.has("field") ? error.get("field").asText() : null).isEqualTo(field);
        assertThat(response.headers().firstValueAsLong("Content-Length"))
                .hasValue(response.body().length);
        if (status == 400) {
            // Refused after the server read the body to its end: the connection stays open.
            assertThat(response.headers().firstValue("Connection")).isEmpty();
        }
        if (status == 415) {
            assertThat(response.headers().firstValue("Connection")).contains("close");
            assertThat(
                            response.headers()
                                    .firstValue(
                                            error.get("message")
                                                            .asText()
                                                            .startsWith("Content-Encoding")
                                                    ? "Accept-Encoding"
                                                    : "Accept-Post"))
                    .isPresent();
        }
    }

    @Test
    void aDeclaredLengthPastTheLimitIsRefusedBeforeTheBodyIsSent() throws Exception {
        try (Socket socket = socket()) {
            long started = System.nanoTime();
            send(
                    socket,
                    "POST /api/books HTTP/1.1\r\n"
                            + "Host: localhost\r\n"
                            + "Content-Type: application/json\r\n"
                            + "Content-Length: "
                            + (MAX_BODY_BYTES + 1)
                            + "\r\n\r\n");
            String answer = readAnswer(socket);
            assertThat(answer)
                    .startsWith("HTTP/1.1 413 ")
                    .containsIgnoringCase("Connection: close")
                    .contains(
                            "the body is larger than the limit of 16777216 bytes"
                                    + " (ingest.maxBodyBytes): Content-Length is 16777217");
            assertThat(Duration.ofNanos(System.nanoTime() - started))
                    .as("answered without waiting for a body")
                    .isLessThan(PROMPTLY);
        }
    }

    /**
     * (The JDK 17 HTTP client waits forever for a 100 that does not come, JDK-8286171: a socket
     * instead.)
     */
    @Test
    void aClientThatAsksToContinueIsRefusedWithoutSendingTheBody() throws Exception {
        try (Socket socket = socket()) {
            send(
                    socket,
                    "POST /api/videos HTTP/1.1\r\n"
                            + "Host: localhost\r\n"
                            + "Content-Type: application/json\r\n"
                            + "Expect: 100-continue\r\n"
                            + "Content-Length: 1099511627776\r\n\r\n");
            String answer = readAnswer(socket);
            assertThat(answer)
                    .as("no 100 Continue: the final answer at once")
                    .startsWith("HTTP/1.1 413 ")
                    .contains("Content-Length is 1099511627776");
        }
    }

    @Test
    void aChunkedBodyIsRefusedAsItPassesTheLimit() throws Exception {
        try (Socket socket = socket()) {
            send(
                    socket,
                    "POST /api/books HTTP/1.1\r\n"
                            + "Host: localhost\r\n"
                            + "Content-Type: application/json\r\n"
                            + "Transfer-Encoding: chunked\r\n\r\n");
            byte[] chunk = new byte[64 * 1024];
            Arrays.fill(chunk, (byte) ' ');
            chunk[0] = '[';
            OutputStream out = socket.getOutputStream();
            for (long sent = 0; sent <= MAX_BODY_BYTES; sent += chunk.length) {
                int length = (int) Math.min(chunk.length, MAX_BODY_BYTES + 1 - sent);
                out.write(
                        (Integer.toHexString(length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                out.write(chunk, 0, length);
                out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
                chunk[0] = ' ';
            }
            out.flush();
            String answer = readAnswer(socket);
            assertThat(answer)
                    .startsWith("HTTP/1.1 413 ")
                    .containsIgnoringCase("Connection: close")
                    .contains(
                            "the body is larger than the limit of 16777216 bytes"
                                    + " (ingest.maxBodyBytes)");
        }
    }

    @ParameterizedTest
    @EnumSource(value = Compression.class, names = "NONE", mode = EnumSource.Mode.EXCLUDE)
    void aDecompressionBombIsRefusedPromptly(Compression encoding) throws Exception {
        byte[] bomb = Bombs.of(encoding);
        long started = System.nanoTime();
        HttpResponse<byte[]> response =
                post("/api/books", "application/json", encoding.contentCoding(), bomb);
        error(
                response,
                413,
                "the body is larger than the limit of 67108864 bytes once decompressed"
                        + " (ingest.maxDecodedBytes)");
        assertThat(Duration.ofNanos(System.nanoTime() - started))
                .as("refused after 64 MiB of the " + (Bombs.expandsTo(encoding) >> 30) + " GiB")
                .isLessThan(PROMPTLY);
        assertThat(runningIngests()).isZero();
    }

    /**
     * A body that arrives in pieces, with pauses, is read whole: the connection watcher, which
     * looks for departed clients of GET requests, never takes pending bytes for a departure, nor
     * reads them.
     */
    @Test
    void aBodySentSlowlyIsReadWhole() throws Exception {
        byte[] body = IngestBodies.get(ObjectKind.VIDEOS, 200, Format.CBOR, Compression.BR);
        try (Socket socket = socket()) {
            send(
                    socket,
                    "POST /api/videos HTTP/1.1\r\n"
                            + "Host: localhost\r\n"
                            + "Content-Type: application/cbor\r\n"
                            + "Content-Encoding: br\r\n"
                            + "Content-Length: "
                            + body.length
                            + "\r\n\r\n");
            int pieces = 5;
            for (int i = 0; i < pieces; i++) {
                socket.getOutputStream()
                        .write(
                                body,
                                i * body.length / pieces,
                                (i + 1) * body.length / pieces - i * body.length / pieces);
                socket.getOutputStream().flush();
                Thread.sleep(150);
                if (i < pieces - 1) {
                    assertThat(runningIngests()).as("the body is being read").isEqualTo(1);
                }
            }
            String answer = readAnswer(socket);
            assertThat(answer).startsWith("HTTP/1.1 200 ").contains("\"objects\":200");
        }
    }

    @Test
    void aClientThatLeavesHalfWayLeavesNothingBehind() throws Exception {
        byte[] body = IngestBodies.get(ObjectKind.BOOKS, SIZE, Format.XML, Compression.NONE);
        for (int i = 0; i < 3; i++) {
            Socket socket = socket();
            send(
                    socket,
                    "POST /api/books HTTP/1.1\r\n"
                            + "Host: localhost\r\n"
                            + "Content-Type: application/xml\r\n"
                            + "Content-Length: "
                            + body.length
                            + "\r\n\r\n");
            socket.getOutputStream().write(body, 0, body.length / 2);
            socket.getOutputStream().flush();
            long deadline = System.nanoTime() + PROMPTLY.toNanos();
            while (runningIngests() == 0) {
                assertThat(System.nanoTime()).as("the body is being read").isLessThan(deadline);
                Thread.sleep(10);
            }
            socket.close();
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(2).toNanos();
        while (runningIngests() > 0) {
            assertThat(System.nanoTime())
                    .as("abandoned bodies stop being read within 2 s")
                    .isLessThan(deadline);
            Thread.sleep(10);
        }
        HttpResponse<byte[]> after = post("/api/books", "application/xml", null, body);
        assertThat(after.statusCode()).isEqualTo(200);
    }

    @Test
    void otherMethodsAndPathsAreStill405() throws Exception {
        for (String method : List.of("PUT", "DELETE", "PATCH")) {
            HttpResponse<byte[]> response =
                    http.send(
                            HttpRequest.newBuilder(uri("/api/books"))
                                    .method(method, HttpRequest.BodyPublishers.ofString("[]"))
                                    .header("Content-Type", "application/json")
                                    .build(),
                            HttpResponse.BodyHandlers.ofByteArray());
            error(
                    response,
                    405,
                    "Method "
                            + method
                            + " is not allowed; /api/books answers GET, HEAD and POST only.");
            assertThat(response.headers().firstValue("Allow")).contains("GET, HEAD, POST");
        }
        for (String path :
                List.of("/api/info", "/api/catalogue", "/api/books/1", "/api/Authors", "/")) {
            HttpResponse<byte[]> response =
                    post(path, "application/json", null, IngestBodies.json("[B]"));
            error(
                    response,
                    405,
                    "this server answers GET and HEAD only (and POST at /api/books, /api/videos"
                            + " and a brought dataset's /api/{name})");
            assertThat(response.headers().firstValue("Allow")).contains("GET, HEAD");
        }
        error(
                post("/api/authors", "application/json", null, IngestBodies.json("[B]")),
                404,
                "No such path: /api/authors");
        assertThat(get("/api/books?count=3&format=cbor").statusCode()).isEqualTo(200);
    }

    @Test
    void infoRecordsTheLimits() throws Exception {
        JsonNode ingest = JSON.readTree(get("/api/info").body()).path("ingest");
        assertThat(ingest.path("max_body_bytes").asLong()).isEqualTo(MAX_BODY_BYTES);
        assertThat(ingest.path("max_decoded_bytes").asLong()).isEqualTo(64L << 20);
        assertThat(ingest.path("max_objects").asInt()).isEqualTo(1_000_000);
        assertThat(ingest.path("zstd_max_window_bytes").asLong()).isEqualTo(8L << 20);
        assertThat(JSON.writeValueAsString(ingest.path("encodings")))
                .isEqualTo("[\"identity\",\"gzip\",\"deflate\",\"br\",\"zstd\"]");
        assertThat(ingest.path("media_types")).hasSize(5);
    }

    // Helpers.

    private HttpResponse<byte[]> get(String pathAndQuery) throws IOException, InterruptedException {
        return http.send(
                HttpRequest.newBuilder(uri(pathAndQuery)).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofByteArray());
    }

    private HttpResponse<byte[]> post(String path, String contentType, String encoding, byte[] body)
            throws IOException, InterruptedException {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(uri(path))
                        .timeout(Duration.ofSeconds(30))
                        .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        if (encoding != null) {
            request.header("Content-Encoding", encoding);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private static URI uri(String pathAndQuery) {
        return URI.create("http://127.0.0.1:" + APP.getLocalPort() + pathAndQuery);
    }

    private static Socket socket() throws IOException {
        Socket socket = new Socket("127.0.0.1", APP.getLocalPort());
        socket.setSoTimeout((int) Duration.ofSeconds(30).toMillis());
        return socket;
    }

    private static void send(Socket socket, String text) throws IOException {
        socket.getOutputStream().write(text.getBytes(StandardCharsets.US_ASCII));
        socket.getOutputStream().flush();
    }

    /** The answer's status line, headers and body, up to its end or the connection's. */
    private static String readAnswer(Socket socket) throws IOException {
        ByteArrayOutputStream answer = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        InputStream in = socket.getInputStream();
        int n;
        while ((n = in.read(buffer)) > 0) {
            answer.write(buffer, 0, n);
            String text = answer.toString(StandardCharsets.UTF_8);
            int headersEnd = text.indexOf("\r\n\r\n");
            if (headersEnd > 0 && text.endsWith("}")
                    || headersEnd > 0 && text.endsWith("0\r\n\r\n")) {
                break;
            }
        }
        return answer.toString(StandardCharsets.UTF_8);
    }

    private int runningIngests() throws Exception {
        URI metrics = URI.create("http://127.0.0.1:" + APP.getAdminPort() + "/metrics");
        return JSON.readTree(
                        http.send(
                                        HttpRequest.newBuilder(metrics).build(),
                                        HttpResponse.BodyHandlers.ofByteArray())
                                .body())
                .path("gauges")
                .path("ingest.running")
                .path("value")
                .asInt();
    }

    private static JsonNode error(HttpResponse<byte[]> response, int status, String messagePart)
            throws IOException {
        String text = new String(response.body(), StandardCharsets.UTF_8);
        assertThat(response.statusCode()).as(text).isEqualTo(status);
        assertThat(response.headers().firstValue("Content-Type").orElseThrow())
                .startsWith("application/json");
        JsonNode error = JSON.readTree(text);
        assertThat(error.path("code").asInt()).isEqualTo(status);
        assertThat(error.path("message").asText())
                .contains(messagePart)
                .doesNotContain("Exception");
        return error;
    }
}
