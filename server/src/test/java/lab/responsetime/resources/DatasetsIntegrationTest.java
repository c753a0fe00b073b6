package lab.responsetime.resources;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import lab.responsetime.LabApplication;
import lab.responsetime.LabConfiguration;
import lab.responsetime.core.compression.Compression;
import lab.responsetime.core.dataset.BroughtDatasets;
import lab.responsetime.core.dataset.DatasetParser;
import lab.responsetime.core.dataset.ObjectKind;
import lab.responsetime.core.dataset.Schema;
import lab.responsetime.core.dataset.SchemaInference;
import lab.responsetime.core.formats.BroughtDecoders;
import lab.responsetime.core.formats.Format;
import lab.responsetime.core.formats.IndependentDecoders;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Brings datasets of several shapes to the real application over HTTP and reads them back in every
 * format and compression with decoders that are not the server's; tries bad datasets and checks
 * that nothing changes.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class DatasetsIntegrationTest {
    private static final String DIRECTORY = "target/it-datasets";
    private static final int MAX_UPLOAD_BYTES = 64 * 1024;
    private static final ObjectMapper JSON = new ObjectMapper();

    private static final DropwizardAppExtension<LabConfiguration> APP =
            new DropwizardAppExtension<>(
                    LabApplication.class,
                    (String) null,
                    ConfigOverride.config("server.applicationConnectors[0].port", "0"),
                    ConfigOverride.config("server.adminConnectors[0].port", "0"),
                    ConfigOverride.config("dataset.size", "200"),
                    ConfigOverride.config("dataset.directory", DIRECTORY),
                    ConfigOverride.config(
                            "dataset.maxUploadBytes", String.valueOf(MAX_UPLOAD_BYTES)),
                    ConfigOverride.config("client.directory", "../client"));

    /** Datasets of several shapes, by name. */
    static final Map<String, String> SHAPES =
            Map.of(
                    "flat",
                    "[{\"level\":\"INFO\",\"n\":1,\"t\":\"2024-01-01T00:00:00Z\",\"msg\":\"a <b> &"
                        + " \\\"c\\\"\",\"ok\":true,\"x\":0.1},"
                        + "{\"level\":\"WARN\",\"n\":-7,\"t\":\"2024-01-01T00:00:01Z\",\"msg\":\"\","
                        + "\"ok\":false,\"x\":-2}]",
                    "nested",
                    "[{\"id\":1,\"user\":{\"name\":\"ü😀\",\"geo\":{\"lat\":1.5,\"lon\":-0.25}},"
                            + "\"tags\":[\"a\",\"b\"],\"parts\":[{\"k\":1,\"v\":\"x\"},{\"k\":2}]},"
                            + "{\"id\":2,\"tags\":[],\"parts\":[]}]",
                    "optional",
                    "{\"a\":\"x\",\"b\":1}\n{\"a\":\"y\",\"b\":null,\"c\":true}\n{\"c\":false}\n",
                    "wide-ints",
                    "[{\"big\":9007199254740993,\"small\":2147483647},"
                            + "{\"big\":-9223372036854775808,\"small\":-2147483648}]",
                    "whitespace",
                    "[{\"s\":\"line\\nbreak\\r\\ncrlf\\ttab  two spaces \"}]");

    private final HttpClient http =
            HttpClient.newBuilder()
                    .version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(Duration.ofSeconds(5))
                    .build();

    static Stream<Arguments> cells() {
        List<Arguments> cells = new ArrayList<>();
        for (String name : SHAPES.keySet().stream().sorted().toList()) {
            for (Format format : Format.values()) {
                for (Compression compression :
                        List.of(Compression.NONE, Compression.GZIP, Compression.ZSTD)) {
                    cells.add(Arguments.of(name, format, compression));
                }
            }
        }
        return cells.stream();
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("cells")
    void servesABroughtDatasetInEveryFormatAsItWasGiven(
            String name, Format format, Compression compression) throws Exception {
        HttpResponse<byte[]> put = send("PUT", "/api/datasets/" + name, SHAPES.get(name));
        assertThat(put.statusCode())
                .as(new String(put.body(), StandardCharsets.UTF_8))
                .isEqualTo(201);
        List<Object> original = original(SHAPES.get(name));

        HttpResponse<byte[]> response =
                send(
                        "GET",
                        "/api/"
                                + name
                                + "?count="
                                + original.size()
                                + "&format="
                                + format.parameter()
                                + "&compression="
                                + compression.parameter(),
                        null);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).contains(format.mediaType());
        assertThat(response.headers().firstValue("Server-Timing").orElseThrow())
                .contains("serialize;dur=");
        ObjectKind<Object[]> kind = kindOf(name);
        List<Object> decoded =
                BroughtDecoders.decode(
                        format, kind, IndependentDecoders.decompress(compression, response.body()));
        assertThat(decoded).hasSameSizeAs(original);
        for (int i = 0; i < original.size(); i++) {
            assertThat(same(original.get(i), decoded.get(i), format == Format.PROTOBUF))
                    .as("object %d: expected %s, got %s", i, original.get(i), decoded.get(i))
                    .isTrue();
        }
    }

    @Test
    void describesTheSchemaWithItsProtoAndXmlExamples() throws Exception {
        HttpResponse<byte[]> put = send("PUT", "/api/datasets/described", SHAPES.get("nested"));
        JsonNode answer = JSON.readTree(put.body());
        JsonNode got = JSON.readTree(send("GET", "/api/datasets/described", null).body());

        assertThat(got).isEqualTo(answer);
        assertThat(got.get("objects").asInt()).isEqualTo(2);
        assertThat(got.get("sha256").asText()).hasSize(64);
        assertThat(got.get("fields").toString())
                .isEqualTo(
                        "[{\"name\":\"id\",\"type\":\"int32\",\"optional\":false},"
                            + "{\"name\":\"user\",\"type\":\"object\",\"optional\":true,\"fields\":["
                            + "{\"name\":\"name\",\"type\":\"string\",\"optional\":false},"
                            + "{\"name\":\"geo\",\"type\":\"object\",\"optional\":false,\"fields\":["
                            + "{\"name\":\"lat\",\"type\":\"double\",\"optional\":false},"
                            + "{\"name\":\"lon\",\"type\":\"double\",\"optional\":false}]}]},"
                            + "{\"name\":\"tags\",\"type\":\"string[]\",\"optional\":false},"
                            + "{\"name\":\"parts\",\"type\":\"object[]\",\"optional\":false,\"fields\":["
                            + "{\"name\":\"k\",\"type\":\"int32\",\"optional\":false},"
                            + "{\"name\":\"v\",\"type\":\"string\",\"optional\":true}]}]");
        assertThat(got.at("/protobuf/message").asText())
                .isEqualTo("lab.datasets.described.ItemList");
        assertThat(got.at("/protobuf/text").asText()).contains("message Item_user_geo {");
        assertThat(got.at("/xml_example/elements").asText())
                .startsWith("<described><item><id>1</id><user><name>");
        assertThat(got.at("/xml_example/attributes").asText())
                .startsWith("<described><item id=\"1\"><user name=");
        assertThat(JSON.readTree(send("GET", "/api/datasets", null).body()).toString())
                .contains("\"name\":\"described\"");
        assertThat(
                        JSON.readTree(send("GET", "/api/info", null).body())
                                .at("/dataset/brought")
                                .toString())
                .contains("\"name\":\"described\"")
                .contains(got.get("sha256").asText());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "not JSON|{nope|422|not JSON",
                "an empty list|[]|422|the list is empty",
                "a list of numbers|[1,2]|422|object 0 is a number",
                "a mixed field|[{\"a\":1},{\"a\":\"x\"}]|422|object 1, field \"a\"",
                "an awkward name|[{\"first name\":\"x\"}]|422|field \"first name\"",
            })
    void refusesABadDatasetAndKeepsTheOneBefore(
            String what, String body, int status, String message) throws Exception {
        assertThat(send("PUT", "/api/datasets/kept", "[{\"a\":1}]").statusCode()).isEqualTo(201);
        byte[] before = Files.readAllBytes(Path.of(DIRECTORY, "datasets", "kept.jsonl"));

        HttpResponse<byte[]> refused = send("PUT", "/api/datasets/kept", body);

        assertThat(refused.statusCode()).isEqualTo(status);
        JsonNode error = JSON.readTree(refused.body());
        assertThat(error.get("code").asInt()).isEqualTo(status);
        assertThat(error.get("message").asText()).contains(message);
        assertThat(Files.readAllBytes(Path.of(DIRECTORY, "datasets", "kept.jsonl")))
                .isEqualTo(before);
        assertThat(
                        new String(
                                send("GET", "/api/kept?format=json", null).body(),
                                StandardCharsets.UTF_8))
                .isEqualTo("[{\"a\":1}]");
        try (Stream<Path> files = Files.list(Path.of(DIRECTORY, "datasets"))) {
            assertThat(files.map(Path::toString)).noneMatch(file -> file.endsWith(".tmp"));
        }
    }

    @Test
    void refusesABodyOverTheLimitWith413() throws Exception {
        String big = "[" + "{\"a\":\"" + "x".repeat(MAX_UPLOAD_BYTES) + "\"}]";
        HttpResponse<byte[]> refused = send("PUT", "/api/datasets/big", big);
        assertThat(refused.statusCode()).isEqualTo(413);
        assertThat(JSON.readTree(refused.body()).get("message").asText())
                .contains("larger than the limit of " + MAX_UPLOAD_BYTES);
        assertThat(send("GET", "/api/datasets/big", null).statusCode()).isEqualTo(404);
    }

    @ParameterizedTest
    @CsvSource({
        "books",
        "videos",
        "datasets",
        "Upper",
        "1abc",
        "a_b",
        "x123456789012345678901234567890123"
    })
    void refusesNamesThatAreNotADatasetsOwn(String name) throws Exception {
        HttpResponse<byte[]> refused = send("PUT", "/api/datasets/" + name, "[{\"a\":1}]");
        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(refused.body()).get("message").asText()).contains(name);
    }

    @Test
    void answersBadParametersAsForBooksAndRepeatsASmallDataset() throws Exception {
        send("PUT", "/api/datasets/small?repeat=5", "[{\"a\":1},{\"a\":2}]");
        HttpResponse<byte[]> bad = send("GET", "/api/small?count=6&format=yaml", null);
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(bad.body()).get("message").asText())
                .isEqualTo(
                        "count must be an integer between 1 and 5, got \"6\"; format must be one of"
                            + " json, protobuf, xml, xml-attributes, cbor, msgpack, got \"yaml\"");
        assertThat(
                        new String(
                                send("GET", "/api/small?count=5", null).body(),
                                StandardCharsets.UTF_8))
                .isEqualTo("[{\"a\":1},{\"a\":2},{\"a\":1},{\"a\":2},{\"a\":1}]");
        assertThat(send("GET", "/api/small?count=5&cm=2", null).body())
                .asString(StandardCharsets.UTF_8)
                .isEqualTo("[{\"a\":1},{\"a\":1},{\"a\":1},{\"a\":2},{\"a\":2}]");
    }

    @Test
    void deletesOnlyWhatWasBrought() throws Exception {
        send("PUT", "/api/datasets/gone", "[{\"a\":1}]");
        assertThat(send("DELETE", "/api/datasets/gone", null).statusCode()).isEqualTo(204);
        assertThat(send("GET", "/api/gone", null).statusCode()).isEqualTo(404);
        assertThat(send("DELETE", "/api/datasets/gone", null).statusCode()).isEqualTo(404);
        assertThat(send("DELETE", "/api/datasets/books", null).statusCode()).isEqualTo(400);
        assertThat(Files.exists(Path.of(DIRECTORY, "datasets", "gone.jsonl"))).isFalse();
    }

    @Test
    void aKeptDatasetLoadsAgainAsItWas() throws Exception {
        send("PUT", "/api/datasets/again", SHAPES.get("optional"));
        BroughtDatasets reloaded = new BroughtDatasets(Path.of(DIRECTORY, "datasets"));
        reloaded.loadAll();
        BroughtDatasets.Entry entry = reloaded.get("again").orElseThrow();
        JsonNode described = JSON.readTree(send("GET", "/api/datasets/again", null).body());
        assertThat(entry.sha256()).isEqualTo(described.get("sha256").asText());
        assertThat(entry.kind().schema().orElseThrow().describe().toString())
                .isEqualTo(JSON.convertValue(described.get("fields"), List.class).toString());
    }

    private ObjectKind<Object[]> kindOf(String name) throws Exception {
        // The schema as the server infers it, from the same body.
        Schema schema =
                SchemaInference.infer(
                                DatasetParser.parse(
                                        new ByteArrayInputStream(
                                                SHAPES.get(name).getBytes(StandardCharsets.UTF_8)),
                                        Long.MAX_VALUE))
                        .schema();
        return ObjectKind.brought(name, schema);
    }

    /** The dataset's objects as plain Java values, nulls dropped. */
    private static List<Object> original(String json) throws Exception {
        List<Object> objects = new ArrayList<>();
        for (Object object :
                DatasetParser.parse(
                        new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)),
                        Long.MAX_VALUE)) {
            objects.add(withoutNulls(object));
        }
        return objects;
    }

    private static Object withoutNulls(Object value) {
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> result = new LinkedHashMap<>();
            map.forEach(
                    (k, v) -> {
                        if (v != null) {
                            result.put((String) k, withoutNulls(v));
                        }
                    });
            return result;
        }
        if (value instanceof List<?> list) {
            return list.stream().map(DatasetsIntegrationTest::withoutNulls).toList();
        }
        return value;
    }

    /**
     * docs/datasets.md's rules: numbers compare by value; with {@code absentArrays}, a missing list
     * is an empty one (Protobuf cannot tell them apart).
     */
    private static boolean same(Object expected, Object actual, boolean absentArrays) {
        if (expected instanceof Map<?, ?> e && actual instanceof Map<?, ?> a) {
            for (Object key : union(e, a)) {
                Object x = e.get(key);
                Object y = a.get(key);
                if (absentArrays
                        && (x == null && List.of().equals(y) || y == null && List.of().equals(x))) {
                    continue;
                }
                if (x == null || y == null || !same(x, y, absentArrays)) {
                    return false;
                }
            }
            return true;
        }
        if (expected instanceof List<?> e && actual instanceof List<?> a) {
            if (e.size() != a.size()) {
                return false;
            }
            for (int i = 0; i < e.size(); i++) {
                if (!same(e.get(i), a.get(i), absentArrays)) {
                    return false;
                }
            }
            return true;
        }
        if (expected instanceof Number e && actual instanceof Number a) {
            boolean integral = !(e instanceof Double) && !(a instanceof Double);
            return integral ? e.longValue() == a.longValue() : e.doubleValue() == a.doubleValue();
        }
        return expected.equals(actual);
    }

    private static List<Object> union(Map<?, ?> a, Map<?, ?> b) {
        List<Object> keys = new ArrayList<>(a.keySet());
        b.keySet().stream().filter(k -> !a.containsKey(k)).forEach(keys::add);
        keys.sort(Comparator.comparing(Object::toString));
        return keys;
    }

    private HttpResponse<byte[]> send(String method, String path, String body) throws Exception {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(URI.create("http://localhost:" + APP.getLocalPort() + path))
                        .timeout(Duration.ofSeconds(30));
        request.method(
                method,
                body == null
                        ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        return http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    }
}
