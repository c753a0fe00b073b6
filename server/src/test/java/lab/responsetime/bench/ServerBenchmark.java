package lab.responsetime.bench;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import lab.responsetime.LabConfiguration;
import lab.responsetime.api.Book;
import lab.responsetime.core.compression.Compression;
import lab.responsetime.core.computation.Cancellation;
import lab.responsetime.core.dataset.BroughtDatasets;
import lab.responsetime.core.dataset.DataFile;
import lab.responsetime.core.dataset.DatasetGenerator;
import lab.responsetime.core.dataset.ObjectKind;
import lab.responsetime.core.formats.BodyWriter;
import lab.responsetime.core.formats.Format;
import lab.responsetime.core.formats.FormatCodec;
import lab.responsetime.core.formats.JacksonMappers;

/**
 * Prints the study server's figures (not a test: run it with {@code npm run bench:server}):
 *
 * <ol>
 *   <li>generation, data-file write and load time for 1,000,000 objects of each kind;
 *   <li>heap used with both datasets resident;
 *   <li>per format at 10, 1,000 and 100,000 objects, the server's serialize time (its own {@link
 *       BodyWriter} path) beside the raw library serializing the same objects;
 *   <li>the same Books brought as a dataset (docs/datasets.md): reading and inferring 100,000 of
 *       them, and per format their serialize time from the inferred schema beside the generated
 *       classes' path;
 *   <li>a real server process: time to the first answer on a first start (generating) and a later
 *       start (loading); first byte against whole body for 100,000 objects; and small requests'
 *       latency while CM4 on 100,000 objects runs.
 * </ol>
 */
public final class ServerBenchmark {
    private static final long SEED = LabConfiguration.DatasetSettings.DEFAULT_SEED;
    private static final int SIZE = LabConfiguration.DatasetSettings.DEFAULT_SIZE;
    private static final OutputStream NOWHERE = OutputStream.nullOutputStream();

    /** Warm-up per body before measuring; then ROUNDS alternating rounds of ROUND_NANOS each. */
    private static final long WARMUP_NANOS = 1_000_000_000L;

    private static final int ROUNDS = 9;
    private static final long ROUND_NANOS = 200_000_000L;

    private ServerBenchmark() {}

    /** Every figure printed, kept raw for results/bench/server-<UTC time>.json. */
    private static final Map<String, List<Map<String, Object>>> FIGURES = new LinkedHashMap<>();

    private static void record(String section, Object... keysAndValues) {
        Map<String, Object> row = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            row.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        FIGURES.computeIfAbsent(section, s -> new ArrayList<>()).add(row);
    }

    /**
     * Writes the figures with their context next to the other benchmarks'
     * (experiments/bench/bench-output.js).
     */
    private static void writeFigures(List<String> sections) throws IOException {
        Path directory = Path.of(System.getProperty("bench.out", "../results/bench"));
        Files.createDirectories(directory);
        String stamp =
                java.time.Instant.now()
                        .truncatedTo(java.time.temporal.ChronoUnit.SECONDS)
                        .toString()
                        .replace(':', '-');
        Path file = directory.resolve("server-" + stamp + ".json");
        Map<String, Object> context = new LinkedHashMap<>();
        context.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version"));
        context.put("cores", Runtime.getRuntime().availableProcessors());
        context.put("java", System.getProperty("java.version"));
        context.put("max_heap_bytes", Runtime.getRuntime().maxMemory());
        context.put("sections", sections);
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("kind", "response-time-lab/benchmark");
        document.put("benchmark", "server");
        document.put("created_at", java.time.Instant.now().toString());
        document.put("context", context);
        document.put("figures", FIGURES);
        JacksonMappers.JSON.writerWithDefaultPrettyPrinter().writeValue(file.toFile(), document);
        System.out.println("Figures: " + file.toAbsolutePath().normalize());
    }

    /**
     * Runs every section, or only those named: {@code datasets}, {@code serialize}, {@code
     * brought}, {@code server}.
     */
    public static void main(String[] args) throws Exception {
        List<String> named =
                Arrays.stream(String.join(" ", args).trim().split("\\s+"))
                        .filter(a -> !a.isEmpty())
                        .toList();
        List<String> sections =
                named.isEmpty() ? List.of("datasets", "serialize", "brought", "server") : named;
        Path directory = Files.createTempDirectory("rtl-bench");
        try {
            System.out.printf(
                    "Response Time Lab server benchmark — %s, %d cores, Java %s%n%n",
                    System.getProperty("os.name"),
                    Runtime.getRuntime().availableProcessors(),
                    System.getProperty("java.version"));
            if (sections.contains("datasets")
                    || sections.contains("serialize")
                    || sections.contains("brought")) {
                List<?>[] datasets = datasetsAndMemory(directory);
                if (sections.contains("serialize")) {
                    serialization(datasets);
                }
                if (sections.contains("brought")) {
                    brought((List<Book>) datasets[0]);
                }
            }
            if (sections.contains("server")) {
                realServer(directory.resolve("server-data"));
            }
            writeFigures(sections);
        } finally {
            try (var files = Files.walk(directory)) {
                files.sorted((a, b) -> b.compareTo(a)).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static List<?>[] datasetsAndMemory(Path directory) throws IOException {
        System.out.println("== Datasets: 1,000,000 objects of each kind");
        long heapBefore = usedHeapAfterGc();
        List<?>[] datasets = new List<?>[2];
        for (ObjectKind<?> kind : ObjectKind.ALL) {
            datasets[kind == ObjectKind.BOOKS ? 0 : 1] = timeKind(kind, directory);
        }
        long heapAfter = usedHeapAfterGc();
        System.out.printf(
                "heap used with both datasets resident: %.0f MB (target ≤ 1536 MB)%n%n",
                (heapAfter - heapBefore) / 1e6);
        record("heap", "both_datasets_resident_bytes", heapAfter - heapBefore);
        return datasets;
    }

    private static <T> List<T> timeKind(ObjectKind<T> kind, Path directory) throws IOException {
        long started = System.nanoTime();
        List<T> generated = DatasetGenerator.generate(kind, SEED, SIZE);
        long generateNanos = System.nanoTime() - started;
        Path file = DataFile.path(directory, kind);
        started = System.nanoTime();
        DataFile.write(file, kind, SEED, generated);
        long writeNanos = System.nanoTime() - started;
        generated = null;
        usedHeapAfterGc();
        started = System.nanoTime();
        List<T> loaded = DataFile.read(file, kind, SEED, SIZE);
        long loadNanos = System.nanoTime() - started;
        System.out.printf(
                "%-6s generate %6.2f s   write %5.2f s   load %5.2f s   file %5.0f MB%n",
                kind,
                generateNanos / 1e9,
                writeNanos / 1e9,
                loadNanos / 1e9,
                Files.size(file) / 1e6);
        record(
                "datasets",
                "kind",
                kind.plural(),
                "generate_nanos",
                generateNanos,
                "write_nanos",
                writeNanos,
                "load_nanos",
                loadNanos,
                "file_bytes",
                Files.size(file));
        return loaded;
    }

    @SuppressWarnings("unchecked")
    private static void serialization(List<?>[] datasets) throws Exception {
        System.out.println(
                "== Serialize time: the server's path (BodyWriter, no compression) against the raw"
                        + " library");
        System.out.println(
                "   median per body; raw = Jackson writeValue / protobuf-java List.writeTo incl."
                        + " building messages");
        System.out.printf(
                "%-7s %-9s %7s %12s %12s %7s %16s%n",
                "kind", "format", "count", "server ms", "raw ms", "ratio", "raw prebuilt ms");
        BodyWriter server = new BodyWriter(new LabConfiguration().getResponse().getHeadBytes());
        for (ObjectKind<?> kind : ObjectKind.ALL) {
            List<Object> all = (List<Object>) datasets[kind == ObjectKind.BOOKS ? 0 : 1];
            for (Format format : Format.values()) {
                for (int count : new int[] {10, 1_000, 100_000}) {
                    serializationCell(
                            (ObjectKind<Object>) kind, format, all.subList(0, count), server);
                }
            }
        }
        System.out.println();
    }

    private static <T> void serializationCell(
            ObjectKind<T> kind, Format format, List<T> objects, BodyWriter server)
            throws Exception {
        Body serverPath =
                () ->
                        server.write(
                                format.codec(),
                                kind,
                                objects,
                                Compression.NONE,
                                0,
                                new Cancellation(),
                                NOWHERE,
                                soFar -> {});
        FormatCodec.LibraryWrite libraryWrite = format.codec().libraryWrite(kind, objects);
        Body raw = () -> libraryWrite.writeTo(NOWHERE);
        String prebuilt = "";
        Optional<FormatCodec.LibraryWrite> prebuiltWrite =
                format.codec().prebuiltWrite(kind, objects);
        if (prebuiltWrite.isPresent()) {
            prebuilt =
                    String.format(
                            Locale.ROOT,
                            "%16.3f",
                            median(
                                    timeRounds(List.of(() -> prebuiltWrite.get().writeTo(NOWHERE)))[
                                            0]));
        }
        double[][] rounds = timeRounds(List.of(serverPath, raw));
        double serverMillis = median(rounds[0]);
        double rawMillis = median(rounds[1]);
        System.out.printf(
                Locale.ROOT,
                "%-7s %-9s %7d %12.3f %12.3f %7.2f %s%n",
                kind,
                format.parameter(),
                objects.size(),
                serverMillis,
                rawMillis,
                serverMillis / rawMillis,
                prebuilt);
        record(
                "serialize",
                "kind",
                kind.plural(),
                "format",
                format.parameter(),
                "count",
                objects.size(),
                "server_ms_rounds",
                rounds[0],
                "raw_ms_rounds",
                rounds[1],
                "server_median_ms",
                serverMillis,
                "raw_median_ms",
                rawMillis);
    }

    /** Books brought as a dataset: the same objects through the inferred schema's path. */
    private static void brought(List<Book> books) throws Exception {
        int count = 100_000;
        System.out.println(
                "== Brought datasets: "
                        + count
                        + " Books brought as a dataset, against the generated classes");
        byte[] json = JacksonMappers.JSON.writeValueAsBytes(books.subList(0, count));
        long started = System.nanoTime();
        BroughtDatasets store = new BroughtDatasets(null);
        BroughtDatasets.Entry entry =
                store.put(
                        "books-brought", new ByteArrayInputStream(json), Long.MAX_VALUE, 0, count);
        double loadMillis = (System.nanoTime() - started) / 1e6;
        System.out.printf(
                Locale.ROOT,
                "   read, inferred and held %d objects (%d bytes of JSON) in %.0f ms%n",
                count,
                json.length,
                loadMillis);
        record(
                "brought",
                "what",
                "load",
                "count",
                count,
                "json_bytes",
                json.length,
                "ms",
                loadMillis);
        System.out.printf(
                "%-9s %7s %14s %14s %7s%n",
                "format", "count", "generated ms", "brought ms", "ratio");
        BodyWriter server = new BodyWriter(new LabConfiguration().getResponse().getHeadBytes());
        List<Object[]> rows = entry.dataset().objects().orElseThrow();
        for (Format format : Format.values()) {
            for (int n : new int[] {1_000, count}) {
                List<Book> generated = books.subList(0, n);
                List<Object[]> asBrought = rows.subList(0, n);
                Body generatedPath =
                        () ->
                                server.write(
                                        format.codec(),
                                        ObjectKind.BOOKS,
                                        generated,
                                        Compression.NONE,
                                        0,
                                        new Cancellation(),
                                        NOWHERE,
                                        soFar -> {});
                Body broughtPath =
                        () ->
                                server.write(
                                        format.codec(),
                                        entry.kind(),
                                        asBrought,
                                        Compression.NONE,
                                        0,
                                        new Cancellation(),
                                        NOWHERE,
                                        soFar -> {});
                double[][] rounds = timeRounds(List.of(generatedPath, broughtPath));
                double generatedMillis = median(rounds[0]);
                double broughtMillis = median(rounds[1]);
                System.out.printf(
                        Locale.ROOT,
                        "%-9s %7d %14.3f %14.3f %7.2f%n",
                        format.parameter(),
                        n,
                        generatedMillis,
                        broughtMillis,
                        broughtMillis / generatedMillis);
                record(
                        "brought",
                        "what",
                        "serialize",
                        "format",
                        format.parameter(),
                        "count",
                        n,
                        "generated_ms_rounds",
                        rounds[0],
                        "brought_ms_rounds",
                        rounds[1],
                        "generated_median_ms",
                        generatedMillis,
                        "brought_median_ms",
                        broughtMillis);
            }
        }
        System.out.println();
    }

    @FunctionalInterface
    private interface Body {
        void write() throws Exception;
    }

    /**
     * Warms each body up, then times them in alternating rounds (so that drift in the machine hits
     * all alike); returns each body's per-write milliseconds, one value per round. Writes are
     * batched so that each timing spans at least a millisecond.
     */
    private static double[][] timeRounds(List<Body> bodies) throws Exception {
        int[] batches = new int[bodies.size()];
        for (int b = 0; b < bodies.size(); b++) {
            batches[b] = 1;
            long deadline = System.nanoTime() + WARMUP_NANOS;
            while (System.nanoTime() < deadline) {
                if (timeBatch(bodies.get(b), batches[b]) < 1_000_000) {
                    batches[b] *= 2;
                }
            }
        }
        double[][] perWriteMillis = new double[bodies.size()][ROUNDS];
        for (int round = 0; round < ROUNDS; round++) {
            for (int b = 0; b < bodies.size(); b++) {
                long writes = 0;
                long nanos = 0;
                while (nanos < ROUND_NANOS) {
                    nanos += timeBatch(bodies.get(b), batches[b]);
                    writes += batches[b];
                }
                perWriteMillis[b][round] = nanos / 1e6 / writes;
            }
        }
        return perWriteMillis;
    }

    private static long timeBatch(Body body, int batch) throws Exception {
        long started = System.nanoTime();
        for (int i = 0; i < batch; i++) {
            body.write();
        }
        return System.nanoTime() - started;
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    private static void realServer(Path dataDirectory) throws Exception {
        System.out.println(
                "== A real server process (java -cp … LabApplication server), 1,000,000 objects per"
                        + " kind");
        int port = freePort();
        int adminPort = freePort();
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        URI base = URI.create("http://127.0.0.1:" + port);
        for (String start :
                List.of(
                        "first start (generates, writes data files)",
                        "later start (loads data files)")) {
            long started = System.nanoTime();
            Process process = startServer(dataDirectory, port, adminPort);
            try {
                awaitFirstAnswers(http, base, process);
                double seconds = (System.nanoTime() - started) / 1e9;
                System.out.printf(
                        "%-44s %6.1f s to the first answer of both kinds (target %s)%n",
                        start, seconds, start.startsWith("first") ? "≤ 60 s" : "≤ 10 s");
                record("start", "start", start, "seconds_to_first_answers", seconds);
                if (start.startsWith("later")) {
                    streaming(http, base);
                    responsiveness(http, base);
                }
            } finally {
                process.destroy();
                process.waitFor();
            }
        }
    }

    private static Process startServer(Path dataDirectory, int port, int adminPort)
            throws IOException {
        List<String> command =
                new ArrayList<>(
                        List.of(
                                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                                "-Ddw.dataset.directory=" + dataDirectory,
                                "-Ddw.server.applicationConnectors[0].port=" + port,
                                "-Ddw.server.adminConnectors[0].port=" + adminPort,
                                "-Ddw.logging.level=WARN",
                                "-Ddw.server.requestLog.appenders[0].type=console",
                                "-Ddw.server.requestLog.appenders[0].threshold=OFF",
                                "-cp",
                                System.getProperty("java.class.path"),
                                "lab.responsetime.LabApplication",
                                "server"));
        return new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
    }

    private static void awaitFirstAnswers(HttpClient http, URI base, Process process)
            throws Exception {
        for (String kind : List.of("books", "videos")) {
            while (true) {
                if (!process.isAlive()) {
                    throw new IllegalStateException(
                            "the server process exited with " + process.exitValue());
                }
                try {
                    if (get(http, base, "/api/" + kind + "?count=1").statusCode() == 200) {
                        break;
                    }
                } catch (IOException notYetListening) {
                    // not listening yet
                }
                Thread.sleep(20);
            }
        }
    }

    private static void streaming(HttpClient http, URI base) throws Exception {
        for (Format format : Format.values()) {
            long started = System.nanoTime();
            HttpResponse<java.io.InputStream> response =
                    http.send(
                            HttpRequest.newBuilder(
                                            base.resolve(
                                                    "/api/books?count=100000&format="
                                                            + format.parameter()))
                                    .build(),
                            HttpResponse.BodyHandlers.ofInputStream());
            long headersNanos = System.nanoTime() - started;
            long bytes;
            try (var body = response.body()) {
                bytes = body.transferTo(NOWHERE);
            }
            long totalNanos = System.nanoTime() - started;
            System.out.printf(
                    Locale.ROOT,
                    "100,000 books %-9s headers after %7.1f ms, whole %6.1f MB body after %7.1f ms;"
                            + " %s%n",
                    format.parameter(),
                    headersNanos / 1e6,
                    bytes / 1e6,
                    totalNanos / 1e6,
                    response.headers().firstValue("Server-Timing").orElse(""));
            record(
                    "streaming",
                    "format",
                    format.parameter(),
                    "count",
                    100_000,
                    "headers_nanos",
                    headersNanos,
                    "body_bytes",
                    bytes,
                    "total_nanos",
                    totalNanos,
                    "server_timing",
                    response.headers().firstValue("Server-Timing").orElse(""));
        }
    }

    private static void responsiveness(HttpClient http, URI base) throws Exception {
        long started = System.nanoTime();
        CompletableFuture<HttpResponse<byte[]>> heavy =
                http.sendAsync(
                        HttpRequest.newBuilder(
                                        base.resolve(
                                                "/api/books?count=100000&cm=4&format=protobuf"))
                                .build(),
                        HttpResponse.BodyHandlers.ofByteArray());
        List<Double> latencies = new ArrayList<>();
        Thread.sleep(200);
        while (!heavy.isDone()) {
            long sent = System.nanoTime();
            int status = get(http, base, "/api/books?count=10").statusCode();
            if (status != 200) {
                throw new IllegalStateException("small request answered " + status);
            }
            latencies.add((System.nanoTime() - sent) / 1e6);
            Thread.sleep(100);
        }
        double[] sorted = latencies.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        HttpResponse<byte[]> done = heavy.get();
        System.out.printf(
                Locale.ROOT,
                "CM4 on 100,000 books took %.1f s (status %d, %s); meanwhile %d small requests: "
                        + "median %.1f ms, max %.1f ms (target: well under 1 s)%n",
                (System.nanoTime() - started) / 1e9,
                done.statusCode(),
                done.headers()
                        .firstValue("Server-Timing")
                        .orElse("")
                        .replaceAll(", serialize.*", ""),
                sorted.length,
                sorted[sorted.length / 2],
                sorted[sorted.length - 1]);
        record(
                "responsiveness",
                "heavy",
                "books count=100000 cm=4",
                "heavy_status",
                done.statusCode(),
                "heavy_seconds",
                (System.nanoTime() - started) / 1e9,
                "small_request_latencies_ms",
                sorted);
    }

    private static HttpResponse<byte[]> get(HttpClient http, URI base, String path)
            throws Exception {
        return http.send(
                HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofByteArray());
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static long usedHeapAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
