package lab.responsetime.resources;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import lab.responsetime.LabConfiguration;
import lab.responsetime.core.compression.Compression;
import lab.responsetime.core.compression.CompressionLevels;
import lab.responsetime.core.computation.ComputationModel;
import lab.responsetime.core.dataset.DatasetGenerator;
import lab.responsetime.core.dataset.ObjectKind;
import lab.responsetime.core.formats.Format;
import lab.responsetime.core.formats.IndependentDecoders;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Boots the real application (Jetty, Jersey, the loader writing real data files) on random ports
 * with a small dataset, and talks to it with the JDK's HTTP client, which neither asks for nor
 * undoes compression on its own.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class ServerIntegrationTest {
    private static final long SEED = LabConfiguration.DatasetSettings.DEFAULT_SEED;
    private static final int SIZE = 3_000;
    private static final int HEAD_BYTES = 4096;

    /** Objects per request of the levels test: heavy levels take about a second per 1,000 Books. */
    private static final int LEVELS_COUNT = 300;

    private static final String ALL_ENCODINGS = "gzip, deflate, br, zstd";
    private static final ObjectMapper JSON = new ObjectMapper();

    private static final DropwizardAppExtension<LabConfiguration> APP =
            TestApplication.boot(
                    SIZE,
                    "target/it-data",
                    ConfigOverride.config("response.headBytes", String.valueOf(HEAD_BYTES)),
                    ConfigOverride.config("computation.maxSortWork", "1.5e8"),
                    ConfigOverride.config("computation.maxConcurrent", "1"),
                    ConfigOverride.config("computation.maxQueued", "0"));

    private final HttpClient http = TestApplication.http11();

    static Stream<Arguments> cells() {
        return EveryBody.atCounts(1, 10, SIZE);
    }

    @ParameterizedTest(name = "{0} {1} {2} {3}")
    @MethodSource("cells")
    <T> void servesEveryFormatAndCompressionExactly(
            ObjectKind<T> kind, Format format, Compression compression, int count)
            throws Exception {
        awaitDatasets();
        // Ask for the opposite of what the parameter says: the parameter must win.
        String acceptEncoding = compression == Compression.NONE ? ALL_ENCODINGS : "identity";
        HttpResponse<byte[]> response =
                get(
                        "/api/"
                                + kind
                                + "?count="
                                + count
                                + "&format="
                                + format.parameter()
                                + "&compression="
                                + compression.parameter(),
                        acceptEncoding);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(header(response, "Content-Type")).isEqualTo(format.mediaType());
        assertThat(header(response, "Cache-Control")).isEqualTo("no-store");
        assertThat(response.headers().firstValue("Content-Encoding"))
                .isEqualTo(compression.contentEncoding());
        String timing = header(response, "Server-Timing");
        assertThat(timing).contains("serialize;dur=");
        assertThat(timing.contains("compress;dur=")).isEqualTo(compression != Compression.NONE);
        assertThat(timing).doesNotContain("sort;").doesNotContain("queue;");
        if (response.body().length <= HEAD_BYTES) {
            assertThat(timing).contains("desc=\"whole body\"");
            assertThat(header(response, "Content-Length"))
                    .isEqualTo(String.valueOf(response.body().length));
        } else {
            assertThat(timing).contains("desc=\"first " + HEAD_BYTES + " bytes\"");
            assertThat(response.headers().firstValue("Content-Length")).isEmpty();
        }

        byte[] body = IndependentDecoders.decompress(compression, response.body());
        assertThat(IndependentDecoders.decode(format, kind, body))
                .containsExactlyElementsOf(DatasetGenerator.generate(kind, SEED, count));
    }

    static Stream<Arguments> levels() {
        List<Arguments> cells = new ArrayList<>();
        for (ObjectKind<?> kind : ObjectKind.ALL) {
            for (CompressionLevels.Case compression : CompressionLevels.all()) {
                if (compression.compression() != Compression.NONE) {
                    cells.add(Arguments.of(kind, compression));
                }
            }
        }
        return cells.stream();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("levels")
    void everyLevelIsTheUncompressedBodyByteForByteWhateverAcceptEncodingSays(
            ObjectKind<?> kind, CompressionLevels.Case compression) throws Exception {
        awaitDatasets();
        String objects = "/api/" + kind + "?count=" + LEVELS_COUNT + "&format=json";
        byte[] uncompressed = get(objects, null).body();
        String compressed = objects + "&compression=" + compression.compression().parameter();
        List<String> urls = new ArrayList<>(List.of(compressed + "&level=" + compression.level()));
        if (compression.isDefault()) {
            urls.add(compressed);
        }
        byte[] first = null;
        for (String url : urls) {
            for (String acceptEncoding : new String[] {null, "identity", ALL_ENCODINGS, "*"}) {
                HttpResponse<byte[]> response = get(url, acceptEncoding);
                assertThat(response.statusCode()).isEqualTo(200);
                assertThat(response.headers().firstValue("Content-Encoding"))
                        .isEqualTo(compression.compression().contentEncoding());
                assertThat(header(response, "Server-Timing").contains("queue;dur="))
                        .as("a heavy level waits for a computation slot")
                        .isEqualTo(compression.isHeavy());
                assertThat(
                                IndependentDecoders.decompress(
                                        compression.compression(), response.body()))
                        .as(url + " with Accept-Encoding " + acceptEncoding)
                        .isEqualTo(uncompressed);
                if (first == null) {
                    first = response.body();
                }
                assertThat(response.body())
                        .as("the same body whatever Accept-Encoding says")
                        .isEqualTo(first);
            }
        }
    }

    @Test
    void defaultsAreTenUnsortedUncompressedJsonObjects() throws Exception {
        awaitDatasets();
        HttpResponse<byte[]> response = get("/api/videos", "gzip");
        assertThat(header(response, "Content-Type")).isEqualTo("application/json");
        assertThat(response.headers().firstValue("Content-Encoding")).isEmpty();
        assertThat(IndependentDecoders.decode(Format.JSON, ObjectKind.VIDEOS, response.body()))
                .isEqualTo(DatasetGenerator.videos(SEED, 10));
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5})
    void sortsOnTheServerAsTheComputationModelSays(int cm) throws Exception {
        awaitDatasets();
        for (ObjectKind<?> kind : ObjectKind.ALL) {
            assertServerSorts(kind, ComputationModel.of(cm), 200);
        }
    }

    private <T> void assertServerSorts(ObjectKind<T> kind, ComputationModel cm, int count)
            throws Exception {
        HttpResponse<byte[]> response =
                get("/api/" + kind + "?format=protobuf&count=" + count + "&cm=" + cm.level(), null);
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(header(response, "Server-Timing")).contains("sort;dur=").contains("queue;dur=");
        assertThat(IndependentDecoders.decode(Format.PROTOBUF, kind, response.body()))
                .containsExactlyElementsOf(
                        cm.apply(kind, DatasetGenerator.generate(kind, SEED, count)));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "count=0                  | count must be an integer between 1 and 3000, got \"0\"",
                "count=3001               | count must be an integer between 1 and 3000",
                "count=-5                 | count must be an integer between 1 and 3000",
                "count=ten                | count must be an integer between 1 and 3000, got"
                        + " \"ten\"",
                "count=1.5                | count must be an integer",
                "count=                   | count must be an integer between 1 and 3000, got \"\"",
                "count=99999999999999999  | count must be an integer",
                "format=yaml              | format must be one of json, protobuf, xml,"
                        + " xml-attributes, cbor, msgpack, got \"yaml\"",
                "format=JSON              | format must be one of json, protobuf, xml,"
                        + " xml-attributes, cbor, msgpack",
                "compression=brotli       | compression must be one of none, gzip, deflate, br,"
                        + " zstd, got \"brotli\"",
                "compression=             | compression must be one of none, gzip, deflate, br,"
                        + " zstd",
                "compression=br&level=12  | level must be an integer between 0 and 11 for"
                        + " compression=br (default 6), got \"12\"",
                "compression=zstd&level=22 | level must be an integer between 1 and 19 for"
                        + " compression=zstd (default 3; the ultra levels 20–22 are refused",
                "compression=gzip&level=0 | level must be an integer between 1 and 9 for"
                        + " compression=gzip (default 6), got \"0\"",
                "level=5                  | level is only for a compression (gzip 1–9, deflate 1–9,"
                        + " br 0–11, zstd 1–19); compression=none takes none",
                "cm=6                     | cm must be an integer between 0 and 5, got \"6\"",
                "cm=x                     | cm must be an integer between 0 and 5",
                "sort=author              | unknown parameter \"sort\"; allowed parameters are"
                        + " count, format, compression, level, cm",
                "count=1&count=2          | parameter \"count\" is given 2 times; give it once",
                "count=0&format=csv       | count must be an integer between 1 and 3000, got \"0\";"
                        + " format must be one of",
            })
    void badParametersGetA400ThatSaysWhatIsAllowed(String query, String message) throws Exception {
        awaitDatasets();
        for (ObjectKind<?> kind : ObjectKind.ALL) {
            assertJsonError(get("/api/" + kind + "?" + query, null), 400, message);
        }
    }

    @Test
    void unknownPathsAre404AndOtherMethods405() throws Exception {
        assertJsonError(
                get("/api/authors", null), 404, "The API has GET /api/books and GET /api/videos");
        assertJsonError(get("/nothing-here.html", null), 404, "No such file");
        // Jetty rejects a path that climbs out of the root and drops the connection: use a fresh
        // client.
        HttpClient once = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        assertJsonError(
                once.send(
                        HttpRequest.newBuilder(uri("/../server/pom.xml")).build(),
                        HttpResponse.BodyHandlers.ofByteArray()),
                400,
                "");
        for (String method : List.of("PUT", "DELETE", "PATCH", "OPTIONS", "TRACE")) {
            HttpResponse<byte[]> response =
                    http.send(
                            HttpRequest.newBuilder(uri("/api/books"))
                                    .method(method, HttpRequest.BodyPublishers.ofString("{}"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofByteArray());
            assertJsonError(response, 405, "/api/books answers GET, HEAD and POST only");
            assertThat(header(response, "Allow")).isEqualTo("GET, HEAD, POST");
            assertThat(header(response, "Connection")).isEqualTo("close");
        }
        for (String method : List.of("POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE")) {
            HttpResponse<byte[]> response =
                    http.send(
                            HttpRequest.newBuilder(uri("/api/info"))
                                    .method(method, HttpRequest.BodyPublishers.ofString("{}"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofByteArray());
            assertJsonError(response, 405, "GET and HEAD only");
            assertThat(header(response, "Allow")).isEqualTo("GET, HEAD");
            assertThat(header(response, "Connection")).isEqualTo("close");
        }
    }

    @Test
    void headAnswersWithoutABody() throws Exception {
        awaitDatasets();
        HttpResponse<byte[]> response =
                http.send(
                        HttpRequest.newBuilder(uri("/api/books?format=xml"))
                                .method("HEAD", HttpRequest.BodyPublishers.noBody())
                                .build(),
                        HttpResponse.BodyHandlers.ofByteArray());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(header(response, "Content-Type")).isEqualTo("application/xml");
        assertThat(response.body()).isEmpty();
    }

    /**
     * Refused before sorting: the answer comes sooner than the sort could have run — at least the
     * budget (1.5e8) over the sorting throughput the server has measured, seconds on this machine
     * kind, where a refusal is one round trip. (A fixed deadline of 2 s failed under load.)
     */
    @Test
    void workAboveTheBudgetIsRefusedAtOnceWith422() throws Exception {
        awaitDatasets();
        long started = System.nanoTime();
        HttpResponse<byte[]> response = get("/api/books?count=3000&cm=5", null);
        Duration answeredIn = Duration.ofNanos(System.nanoTime() - started);
        assertJsonError(response, 422, "cm=5 on 3000 books needs an estimated");
        assertThat(message(response))
                .contains("limit of 150,000,000")
                .contains("count up to 1959;");
        double workPerSecond =
                adminJson("/metrics")
                        .path("gauges")
                        .path("computations.workPerSecond")
                        .path("value")
                        .asDouble();
        assertThat(workPerSecond).as("the server's sorting throughput (its metric)").isPositive();
        Duration sortAtLeast = Duration.ofMillis(Math.round(1.5e8 / workPerSecond * 1000));
        assertThat(answeredIn)
                .as("refused without sorting (the sort: at least %s)", sortAtLeast)
                .isLessThan(sortAtLeast);
    }

    @Test
    void smallRequestsAnswerWhileHeavyWorkRunsAndWorkBeyondCapacityIs503() throws Exception {
        awaitDatasets();
        CompletableFuture<HttpResponse<byte[]>> heavy =
                http.sendAsync(
                        HttpRequest.newBuilder(uri("/api/books?count=1000&cm=5&format=protobuf"))
                                .build(),
                        HttpResponse.BodyHandlers.ofByteArray());
        while (runningComputations() == 0) {
            assertThat(heavy).as("the heavy request is still running").isNotDone();
            Thread.sleep(5);
        }

        HttpResponse<byte[]> small = get("/api/books?count=100", null);
        assertThat(small.statusCode()).isEqualTo(200);
        HttpResponse<byte[]> refused = get("/api/videos?count=10&cm=1", null);
        assertJsonError(refused, 503, "The server is busy");
        assertThat(Long.parseLong(header(refused, "Retry-After"))).isPositive();
        assertThat(heavy).as("the heavy request was still running").isNotDone();

        HttpResponse<byte[]> done = heavy.get();
        assertThat(done.statusCode()).isEqualTo(200);
        assertThat(IndependentDecoders.decode(Format.PROTOBUF, ObjectKind.BOOKS, done.body()))
                .containsExactlyElementsOf(
                        ComputationModel.CM5.apply(
                                ObjectKind.BOOKS, DatasetGenerator.books(SEED, 1000)));
    }

    /**
     * Brotli 11 on 3,000 Books takes a few seconds of CPU: heavy levels take the one computation
     * slot, so on this 2-core machine the others are refused at once (no queue here), sorting
     * included, while requests without heavy work are answered as usual.
     */
    @Test
    void heavyCompressionsTakeTheComputationSlotsAndSmallRequestsStillAnswer() throws Exception {
        awaitDatasets();
        String heavyPath = "/api/books?count=" + SIZE + "&format=json&compression=br&level=11";
        CompletableFuture<HttpResponse<byte[]>> heavy =
                http.sendAsync(
                        HttpRequest.newBuilder(uri(heavyPath)).build(),
                        HttpResponse.BodyHandlers.ofByteArray());
        while (runningComputations() == 0) {
            assertThat(heavy).as("the heavy compression is still running").isNotDone();
            Thread.sleep(5);
        }

        for (String moreHeavyWork :
                List.of(
                        "/api/videos?count=" + SIZE + "&compression=zstd&level=19",
                        "/api/books?count=" + SIZE + "&compression=br&level=10",
                        "/api/videos?count=10&cm=1")) {
            HttpResponse<byte[]> refused = get(moreHeavyWork, null);
            assertJsonError(refused, 503, "The server is busy");
            assertThat(Long.parseLong(header(refused, "Retry-After"))).isPositive();
        }
        // Answered while brotli 11 runs, not queued behind it: all three before it ends. The
        // margin is the work's: brotli 11 on 3,000 Books is seconds of CPU, these answers tens of
        // milliseconds, and load slows both alike. (A fixed deadline of 2 s failed under load.)
        for (String light :
                List.of(
                        "/api/books?count=100",
                        "/api/videos?count=" + SIZE + "&compression=br",
                        "/api/videos?count=" + SIZE + "&compression=zstd&level=15")) {
            assertThat(get(light, null).statusCode()).isEqualTo(200);
        }
        assertThat(heavy).as("the heavy compression was still running").isNotDone();

        HttpResponse<byte[]> done = heavy.get();
        assertThat(done.statusCode()).isEqualTo(200);
        assertThat(header(done, "Server-Timing")).contains("queue;dur=").contains("compress;dur=");
        assertThat(
                        IndependentDecoders.decode(
                                Format.JSON,
                                ObjectKind.BOOKS,
                                IndependentDecoders.decompress(Compression.BR, done.body())))
                .containsExactlyElementsOf(DatasetGenerator.books(SEED, SIZE));
        assertThat(runningComputations()).as("the slot is free again").isZero();
    }

    @Test
    void clientPageIsServedCrossOriginIsolated() throws Exception {
        HttpResponse<byte[]> page = get("/", null);
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(header(page, "Content-Type")).startsWith("text/html");
        assertThat(header(page, "Cross-Origin-Opener-Policy")).isEqualTo("same-origin");
        assertThat(header(page, "Cross-Origin-Embedder-Policy")).isEqualTo("require-corp");
        assertThat(new String(page.body())).contains("<html");
        assertThat(header(get("/api/books", null), "Cross-Origin-Embedder-Policy"))
                .isEqualTo("require-corp");
    }

    @Test
    void servesTheSchemaAndProtobufJsForThePage() throws Exception {
        HttpResponse<byte[]> proto = get("/proto/lab.proto", null);
        assertThat(proto.statusCode()).isEqualTo(200);
        assertThat(new String(proto.body()))
                .isEqualTo(
                        java.nio.file.Files.readString(
                                java.nio.file.Path.of("../proto/lab.proto")));
        HttpResponse<byte[]> library = get("/vendor/protobufjs/dist/protobuf.min.js", null);
        assertThat(library.statusCode()).isEqualTo(200);
        assertThat(header(library, "Content-Type")).startsWith("text/javascript");
        assertThat(header(library, "Cross-Origin-Embedder-Policy")).isEqualTo("require-corp");
        assertThat(new String(library.body()))
                .contains("protobuf.js v" + ClientFilesServlet.protobufjsVersion());
        assertJsonError(get("/vendor/protobufjs/nothing.js", null), 404, "No such file");
    }

    @Test
    void infoNamesVersionsDatasetAndMachine() throws Exception {
        awaitDatasets();
        JsonNode info = JSON.readTree(get("/api/info", null).body());
        assertThat(info.path("versions").path("dropwizard").asText()).isEqualTo("5.0.2");
        assertThat(info.path("versions").path("protobuf_java").asText())
                .isEqualTo(
                        com.google.protobuf.RuntimeVersion.OSS_MAJOR
                                + "."
                                + com.google.protobuf.RuntimeVersion.OSS_MINOR
                                + "."
                                + com.google.protobuf.RuntimeVersion.OSS_PATCH);
        assertThat(info.path("versions").path("jersey").asText()).startsWith("3.");
        assertThat(info.path("versions").path("jackson").asText()).startsWith("2.");
        assertThat(info.path("versions").path("protobufjs").asText())
                .isEqualTo(ClientFilesServlet.protobufjsVersion());
        assertThat(info.path("dataset").path("seed").asLong()).isEqualTo(SEED);
        assertThat(info.path("dataset").path("size").asInt()).isEqualTo(SIZE);
        assertThat(info.path("dataset").path("books").asText()).isEqualTo("ready");
        assertThat(info.path("machine").path("available_processors").asInt()).isPositive();
        assertThat(info.path("settings").has("gzip_level"))
                .as("levels are per request now")
                .isFalse();
        List<String> jvmOptions = new ArrayList<>();
        info.path("settings")
                .path("jvm_options")
                .forEach(option -> jvmOptions.add(option.asText()));
        assertThat(info.path("settings").path("jvm_options").isArray()).isTrue();
        assertThat(jvmOptions)
                .isEqualTo(
                        InfoResource.jvmOptions(
                                ManagementFactory.getRuntimeMXBean().getInputArguments()));
    }

    @Test
    void infoKeepsTheJvmsOwnOptionsButNotItsSystemProperties() {
        assertThat(
                        InfoResource.jvmOptions(
                                List.of(
                                        "-Dclassworlds.conf=/usr/share/maven/bin/m2.conf",
                                        "-Xms2g",
                                        "-Dmaven.multiModuleProjectDirectory=/tmp/clone",
                                        "-XX:+AlwaysPreTouch",
                                        "-Xlog:gc",
                                        "-ea")))
                .containsExactly("-Xms2g", "-XX:+AlwaysPreTouch", "-Xlog:gc");
    }

    @Test
    void infoNamesEachCompressionsLibraryVersionAndLevels() throws Exception {
        JsonNode compressions = JSON.readTree(get("/api/info", null).body()).path("compressions");
        assertThat(compressions.fieldNames())
                .toIterable()
                .containsExactly("gzip", "deflate", "br", "zstd");
        for (String zlib : List.of("gzip", "deflate")) {
            assertThat(compressions.path(zlib).path("library").asText())
                    .isEqualTo("JDK java.util.zip (zlib)");
            assertThat(compressions.path(zlib).path("version").asText())
                    .isEqualTo(Runtime.version().toString());
            assertThat(compressions.path(zlib).path("heavy_from").isNull()).isTrue();
        }
        assertThat(compressions.path("br").path("library").asText()).isEqualTo("brotli4j");
        assertThat(compressions.path("br").path("version").asText())
                .isEqualTo(
                        jarVersion(com.aayushatharva.brotli4j.encoder.Encoder.class, "brotli4j-"));
        assertThat(compressions.path("zstd").path("library").asText()).isEqualTo("zstd-jni");
        assertThat(compressions.path("zstd").path("version").asText())
                .isEqualTo(jarVersion(com.github.luben.zstd.ZstdCompressCtx.class, "zstd-jni-"));
        assertThat(JSON.writeValueAsString(compressions.path("br").path("levels")))
                .isEqualTo("{\"min\":0,\"max\":11,\"default\":6}");
        assertThat(JSON.writeValueAsString(compressions.path("zstd").path("levels")))
                .isEqualTo("{\"min\":1,\"max\":19,\"default\":3}");
        assertThat(compressions.path("br").path("heavy_from").asInt()).isEqualTo(10);
        assertThat(compressions.path("zstd").path("heavy_from").asInt()).isEqualTo(16);
    }

    /**
     * The version in the name of the jar a class was loaded from, e.g. {@code brotli4j-1.24.0.jar}.
     */
    private static String jarVersion(Class<?> type, String prefix) {
        String jar =
                Path.of(type.getProtectionDomain().getCodeSource().getLocation().getPath())
                        .getFileName()
                        .toString();
        assertThat(jar).startsWith(prefix).endsWith(".jar");
        return jar.substring(prefix.length(), jar.length() - ".jar".length());
    }

    @Test
    void healthCheckSaysBothDatasetsAreLoaded() throws Exception {
        awaitDatasets();
        JsonNode health = adminJson("/healthcheck");
        assertThat(health.path("datasets").path("healthy").asBoolean()).isTrue();
        assertThat(health.path("datasets").path("message").asText())
                .contains("books: ready")
                .contains("videos: ready")
                .contains("seed " + SEED);
    }

    private void awaitDatasets() throws Exception {
        TestApplication.awaitDatasets(APP, http, Duration.ofSeconds(30));
    }

    private int runningComputations() throws Exception {
        return adminJson("/metrics")
                .path("gauges")
                .path("computations.running")
                .path("value")
                .asInt();
    }

    private JsonNode adminJson(String path) throws Exception {
        URI uri = URI.create("http://127.0.0.1:" + APP.getAdminPort() + path);
        return JSON.readTree(
                http.send(
                                HttpRequest.newBuilder(uri).build(),
                                HttpResponse.BodyHandlers.ofByteArray())
                        .body());
    }

    private HttpResponse<byte[]> get(String pathAndQuery, String acceptEncoding)
            throws IOException, InterruptedException {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(uri(pathAndQuery)).timeout(Duration.ofSeconds(60));
        if (acceptEncoding != null) {
            request.header("Accept-Encoding", acceptEncoding);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private static URI uri(String pathAndQuery) {
        return URI.create("http://127.0.0.1:" + APP.getLocalPort() + pathAndQuery);
    }

    private static String header(HttpResponse<?> response, String name) {
        return response.headers()
                .firstValue(name)
                .orElseThrow(() -> new AssertionError("no " + name + " header"));
    }

    private static String message(HttpResponse<byte[]> response) throws IOException {
        return JSON.readTree(response.body()).path("message").asText();
    }

    private static void assertJsonError(
            HttpResponse<byte[]> response, int status, String messagePart) throws IOException {
        assertThat(response.statusCode()).isEqualTo(status);
        assertThat(header(response, "Content-Type")).startsWith("application/json");
        JsonNode error = JSON.readTree(response.body());
        assertThat(error.path("code").asInt()).isEqualTo(status);
        assertThat(error.path("message").asText())
                .contains(messagePart)
                .doesNotContain("Exception");
    }
}
