package lab.responsetime.resources;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import java.io.ByteArrayInputStream;
import java.net.Socket;
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
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
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
            TestApplication.boot(
                    200,
                    DIRECTORY,
                    ConfigOverride.config(
                            "dataset.maxUploadBytes", String.valueOf(MAX_UPLOAD_BYTES)),
                    ConfigOverride.config(
                            "dataset.bring.startup", "src/test/resources/datasets/startup.jsonl"));

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
                    "[{\"s\":\"line\\nbreak\\r\\ncrlf\\ttab  two spaces \"}]",
                    "awkward",
                    "[{\"_id\":1,\"class\":\"a\",\"message\":\"m\",\"item\":{\"item\":2},"
                            + "\"x9_\":true,\"Type\":\"T\"},{\"_id\":0,\"class\":\"\",\"message\":"
                            + "\"\",\"x9_\":false,\"Type\":\"\"}]");

    private final HttpClient http = TestApplication.http11();

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

        HttpResponse<byte[]> collected =
                post("/api/" + name, format.mediaType(), compression, response.body());
        assertThat(collected.statusCode())
                .as(new String(collected.body(), StandardCharsets.UTF_8))
                .isEqualTo(200);
        JsonNode summary = JSON.readTree(collected.body());
        assertThat(summary.get("kind").asText()).isEqualTo(name);
        assertThat(summary.get("format").asText()).isEqualTo(format.parameter());
        assertThat(summary.get("objects").asInt()).isEqualTo(original.size());
        assertThat(summary.get("bytes").asLong()).isEqualTo(response.body().length);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "a wrong type|[{\"id\":\"one\",\"tags\":[],\"parts\":[]}]|0|id|collected[0].id"
                        + " must be an integer within 32 bits (int32), got \"one\"",
                "beyond 32 bits|[{\"id\":1},{\"id\":4294967296}]|1|id|collected[1].id must be an"
                        + " integer within 32 bits",
                "an unknown field|[{\"id\":1,\"name\":\"x\"}]|0|name|collected[0] has an unknown"
                        + " field \"name\"; an object of collected has the fields id, user, tags,"
                        + " parts",
                "a missing field|[{\"tags\":[]}]|0|id|collected[0] has no id",
                "a nested wrong type|[{\"id\":1,\"user\":{\"name\":\"a\",\"geo\":{\"lat\":"
                        + "\"n\",\"lon\":0}}}]|0|user.geo.lat|collected[0].user.geo.lat must be a"
                        + " number (double), got \"n\"",
                "an element's wrong type|[{\"id\":1,\"tags\":[\"a\",2]}]|0|tags[1]|collected[0]"
                        + ".tags[1] must be a string, got 2",
                "null for a required field|[{\"id\":null}]|0|id|collected[0].id must be an integer",
                "not an object|[{\"id\":1},7]|1||collected[1] must be an object",
                "an empty list|[]|||the list is empty; send at least one object of collected",
                "not JSON|[{\"id\":|0||the body is not valid JSON",
                "a repeated name|[{\"id\":1,\"id\":2}]|0||Duplicate field 'id'",
            })
    void collectsOnlyWhatTheSchemaAllows(
            String what, String body, Integer object, String field, String message)
            throws Exception {
        assertThat(send("PUT", "/api/datasets/collected", SHAPES.get("nested")).statusCode())
                .isEqualTo(201);

        HttpResponse<byte[]> refused =
                post(
                        "/api/collected",
                        "application/json",
                        Compression.NONE,
                        body.getBytes(StandardCharsets.UTF_8));

        assertThat(refused.statusCode()).isEqualTo(400);
        JsonNode error = JSON.readTree(refused.body());
        assertThat(error.get("message").asText()).contains(message);
        assertThat(error.path("object").isMissingNode() ? null : error.get("object").asInt())
                .isEqualTo(object);
        assertThat(error.path("field").isMissingNode() ? null : error.get("field").asText())
                .isEqualTo(field);
    }

    @Test
    void refusesWhatTheEncoderNeverWritesAsForBooks() throws Exception {
        send("PUT", "/api/datasets/tagged", "[{\"id\":1}]");
        java.io.ByteArrayOutputStream cbor = new java.io.ByteArrayOutputStream();
        try (com.fasterxml.jackson.dataformat.cbor.CBORGenerator generator =
                new com.fasterxml.jackson.dataformat.cbor.CBORFactory().createGenerator(cbor)) {
            generator.writeStartArray();
            generator.writeStartObject();
            generator.writeFieldName("id");
            generator.writeTag(1);
            generator.writeNumber(5);
            generator.writeEndObject();
            generator.writeEndArray();
        }

        HttpResponse<byte[]> refused =
                post("/api/tagged", "application/cbor", Compression.NONE, cbor.toByteArray());

        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(refused.body()).get("message").asText())
                .isEqualTo(
                        "tagged[0].id must be an integer within 32 bits (int32), got a value with"
                                + " CBOR tag 1");
    }

    @Test
    void collectsABroughtDatasetOnlyWhereOneIs() throws Exception {
        HttpResponse<byte[]> none =
                post("/api/nowhere", "application/json", Compression.NONE, "[{}]".getBytes());
        assertThat(none.statusCode()).isEqualTo(404);
        // Its body was never read: the connection must not be offered for the next request.
        assertThat(none.headers().firstValue("Connection")).hasValue("close");
        assertThat(send("GET", "/api/nowhere", null).headers().firstValue("Connection")).isEmpty();
        HttpResponse<byte[]> brought = send("PUT", "/api/datasets/typed", "[{\"a\":1}]");
        assertThat(brought.statusCode()).isEqualTo(201);
        assertThat(brought.headers().firstValue("Connection")).as("body read to its end").isEmpty();
        HttpResponse<byte[]> yaml =
                post("/api/typed", "application/yaml", Compression.NONE, "- a: 1".getBytes());
        assertThat(yaml.statusCode()).isEqualTo(415);
        HttpResponse<byte[]> query =
                post("/api/typed?count=1", "application/json", Compression.NONE, "[]".getBytes());
        assertThat(query.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(query.body()).get("message").asText())
                .contains("POST /api/typed takes no query parameters");
    }

    /**
     * experiments/datasets/check_dataset.py: Python's json, cbor2, msgpack, protobuf (with the
     * published .proto compiled by protoc) and ElementTree read every format and compression of
     * each shape as it was given. It needs Debian's Python packages and protoc, which
     * scripts/setup.sh installs as root.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("shapeNames")
    void independentPythonDecodersReadEveryFormatAsGiven(String name, @TempDir Path directory)
            throws Exception {
        Assumptions.assumeTrue(
                pythonCheckRuns(),
                "needs "
                        + PYTHON
                        + " with cbor2, msgpack and protobuf, and protoc (scripts/setup.sh"
                        + " installs them as root)");
        Path file = Files.writeString(directory.resolve(name + ".json"), SHAPES.get(name));

        Process check =
                new ProcessBuilder(
                                PYTHON,
                                "../experiments/datasets/check_dataset.py",
                                "http://localhost:" + APP.getLocalPort(),
                                "py-" + name,
                                file.toString())
                        .redirectErrorStream(true)
                        .start();
        String said = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

        assertThat(check.waitFor()).as(said).isZero();
        assertThat(said).contains("protobuf/gzip: ").contains("xml-attributes/none: ");
    }

    static Stream<String> shapeNames() {
        return SHAPES.keySet().stream().sorted();
    }

    /** Debian's Python, which has the packages setup.sh installs (python3 on PATH may not). */
    private static final String PYTHON =
            Files.isExecutable(Path.of("/usr/bin/python3")) ? "/usr/bin/python3" : "python3";

    private static boolean pythonCheckRuns() {
        try {
            Process probe =
                    new ProcessBuilder(
                                    "sh",
                                    "-c",
                                    PYTHON
                                            + " -c 'import cbor2, msgpack, google.protobuf'"
                                            + " && protoc --version")
                            .redirectErrorStream(true)
                            .start();
            probe.getInputStream().readAllBytes();
            return probe.waitFor() == 0;
        } catch (java.io.IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** A .proto of its own for the "nested" shape: other numbers, other integer types, nesting. */
    static final String NESTED_PROTO =
            """
            syntax = "proto3";
            package my.shop;

            message Record {
              message User { string name = 1; Geo geo = 2; }
              message Geo { double lat = 1; double lon = 2; }
              message Part { int64 k = 3; optional string v = 4; }
              sint32 id = 7;
              User user = 2;
              repeated string tags = 3;
              repeated Part parts = 5;
              optional string note = 9;
            }
            """;

    @Test
    void servesAndCollectsADatasetWithItsOwnProto() throws Exception {
        HttpResponse<byte[]> put =
                putWithProto("own", SHAPES.get("nested"), NESTED_PROTO, "Record");
        assertThat(put.statusCode())
                .as(new String(put.body(), StandardCharsets.UTF_8))
                .isEqualTo(201);
        JsonNode described = JSON.readTree(send("GET", "/api/datasets/own", null).body());
        assertThat(described.at("/protobuf/given").asBoolean()).isTrue();
        assertThat(described.at("/protobuf/message").asText()).isEqualTo("my.shop.RecordList");
        assertThat(described.at("/protobuf/item_message").asText()).isEqualTo("my.shop.Record");
        assertThat(described.at("/protobuf/text").asText())
                .startsWith(NESTED_PROTO)
                .contains("message RecordList {\n  repeated .my.shop.Record items = 1;\n}");

        for (Compression compression : List.of(Compression.NONE, Compression.GZIP)) {
            HttpResponse<byte[]> body =
                    send(
                            "GET",
                            "/api/own?count=2&format=protobuf&compression="
                                    + compression.parameter(),
                            null);
            assertThat(body.statusCode()).isEqualTo(200);
            HttpResponse<byte[]> collected =
                    post("/api/own", "application/x-protobuf", compression, body.body());
            assertThat(collected.statusCode())
                    .as(new String(collected.body(), StandardCharsets.UTF_8))
                    .isEqualTo(200);
            assertThat(JSON.readTree(collected.body()).get("objects").asInt()).isEqualTo(2);
        }
        // id 1 as the given sint32 field 7: tag 7 << 3 | varint, then zigzag(1) = 2.
        byte[] raw = send("GET", "/api/own?count=1&format=protobuf", null).body();
        assertThat(indexOf(raw, new byte[] {0x38, 0x02})).isNotNegative();
        // Kept with the dataset: it loads again with its own .proto.
        BroughtDatasets reloaded = new BroughtDatasets(Path.of(DIRECTORY, "datasets"));
        reloaded.loadAll();
        assertThat(reloaded.get("own").orElseThrow().kind().protoSchema().listMessage())
                .isEqualTo("my.shop.RecordList");
        // Brought again without one, it has the inferred one.
        send("PUT", "/api/datasets/own", SHAPES.get("nested"));
        assertThat(
                        JSON.readTree(send("GET", "/api/datasets/own", null).body())
                                .at("/protobuf/given")
                                .asBoolean())
                .isFalse();
        assertThat(Files.exists(Path.of(DIRECTORY, "datasets", "own.proto.json"))).isFalse();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "not a .proto|message {|Record|does not parse",
                "proto2|syntax = \"proto2\"; message Record { optional int32 id = 1;"
                        + " }|Record|proto3",
                "an enum|syntax = \"proto3\"; enum E { A = 0; } message Record { int32 id = 1;"
                        + " }|Record|enums are not supported",
                "no such message|syntax = \"proto3\"; message Other { int32 id = 1; }|Record|has no"
                        + " message Record; it has Other",
                "a missing field|syntax = \"proto3\"; message Record { int32 id = 1; }|Record|the"
                        + " data has the field n, which Record does not have",
                "a wrong type|syntax = \"proto3\"; message Record { string id = 1; int32 n = 2; }"
                        + "|Record|the data's id holds int32 values; id (in Record) is string",
                "optional needed|syntax = \"proto3\"; message Record { int32 id = 1; int32 n = 2; }"
                        + "|Record|the data's n is absent or null in some objects, so n (in Record)"
                        + " must be proto3 optional",
                "a field without data|syntax = \"proto3\"; message Record { int32 id = 1; optional"
                    + " int32 n = 2; bool x = 3; }|Record|Record has the field x, which the data"
                    + " does not have",
                "unsigned|syntax = \"proto3\"; message Record { uint32 id = 1; optional int32 n ="
                        + " 2; }|Record|-1 is negative",
                "an unknown type|syntax = \"proto3\"; message Record { Missing id = 1; optional"
                        + " int32 n = 2; }|Record|Missing",
            })
    void refusesAProtoThatDoesNotCarryTheData(String what, String proto, String message, String why)
            throws Exception {
        HttpResponse<byte[]> refused =
                putWithProto("badproto", "[{\"id\":1,\"n\":2},{\"id\":-1}]", proto, message);

        assertThat(refused.statusCode())
                .as(new String(refused.body(), StandardCharsets.UTF_8))
                .isEqualTo(422);
        assertThat(JSON.readTree(refused.body()).get("message").asText())
                .startsWith("dataset badproto refused: the .proto given: ")
                .contains(why);
        assertThat(send("GET", "/api/datasets/badproto", null).statusCode()).isEqualTo(404);
    }

    @Test
    void aMultipartPutNamesItsParts() throws Exception {
        HttpResponse<byte[]> refused =
                putWithProto("parts", "[{\"a\":1}]", "syntax = \"proto3\";", null);
        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(refused.body()).get("message").asText())
                .contains("has the parts data");
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            if (java.util.Arrays.equals(haystack, i, i + needle.length, needle, 0, needle.length)) {
                return i;
            }
        }
        return -1;
    }

    /** PUT with a multipart/form-data body: data, and proto and message where not null. */
    private HttpResponse<byte[]> putWithProto(
            String name, String data, String proto, String message) throws Exception {
        String boundary = "lab-test-boundary";
        StringBuilder body = new StringBuilder();
        Map<String, String> parts = new LinkedHashMap<>();
        parts.put("data", data);
        if (proto != null) {
            parts.put("proto", proto);
        }
        if (message != null) {
            parts.put("message", message);
        }
        parts.forEach(
                (part, content) ->
                        body.append("--")
                                .append(boundary)
                                .append("\r\nContent-Disposition: form-data; name=\"")
                                .append(part)
                                .append("\"; filename=\"")
                                .append(part)
                                .append("\"\r\nContent-Type: application/octet-stream\r\n\r\n")
                                .append(content)
                                .append("\r\n"));
        body.append("--").append(boundary).append("--\r\n");
        HttpRequest request =
                HttpRequest.newBuilder(
                                URI.create(
                                        "http://localhost:"
                                                + APP.getLocalPort()
                                                + "/api/datasets/"
                                                + name))
                        .timeout(Duration.ofSeconds(30))
                        .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                        .PUT(
                                HttpRequest.BodyPublishers.ofString(
                                        body.toString(), StandardCharsets.UTF_8))
                        .build();
        return http.send(request, HttpResponse.BodyHandlers.ofByteArray());
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
        assertThat(refused.headers().firstValue("Connection"))
                .as("the body, less than twice the limit, was read to its end")
                .isEmpty();
        assertThat(JSON.readTree(refused.body()).get("message").asText())
                .contains("larger than the limit of " + MAX_UPLOAD_BYTES);
        assertThat(send("GET", "/api/datasets/big", null).statusCode()).isEqualTo(404);
    }

    /** A body past twice the limit is not waited for: refused at once, the connection closed. */
    @Test
    void refusesABodyPastTwiceTheLimitWithoutWaitingForIt() throws Exception {
        try (Socket socket = new Socket("localhost", APP.getLocalPort())) {
            socket.setSoTimeout(30_000);
            socket.getOutputStream()
                    .write(
                            ("PUT /api/datasets/huge HTTP/1.1\r\n"
                                            + "Host: localhost\r\n"
                                            + "Content-Type: application/json\r\n"
                                            + "Content-Length: "
                                            + (3L * MAX_UPLOAD_BYTES)
                                            + "\r\n\r\n[{\"a\":\"")
                                    .getBytes(StandardCharsets.US_ASCII));
            String answer =
                    new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(answer)
                    .startsWith("HTTP/1.1 413 ")
                    .containsIgnoringCase("Connection: close")
                    .contains("larger than the limit of " + MAX_UPLOAD_BYTES);
        }
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
    void bringsTheDatasetsOfTheSettingAtStartUp() throws Exception {
        JsonNode described = JSON.readTree(send("GET", "/api/datasets/startup", null).body());
        assertThat(described.get("objects").asInt()).isEqualTo(3);
        assertThat(described.get("fields").toString())
                .isEqualTo(
                        "[{\"name\":\"id\",\"type\":\"int32\",\"optional\":false},"
                                + "{\"name\":\"name\",\"type\":\"string\",\"optional\":true}]");
        assertThat(send("GET", "/api/startup?count=3&format=cbor", null).statusCode())
                .isEqualTo(200);
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

    private HttpResponse<byte[]> post(
            String path, String contentType, Compression compression, byte[] body)
            throws Exception {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(URI.create("http://localhost:" + APP.getLocalPort() + path))
                        .timeout(Duration.ofSeconds(30))
                        .header("Content-Type", contentType)
                        .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        compression
                .contentEncoding()
                .ifPresent(coding -> request.header("Content-Encoding", coding));
        return http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
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
