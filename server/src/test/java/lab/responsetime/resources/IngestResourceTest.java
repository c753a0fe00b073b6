package lab.responsetime.resources;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.dropwizard.testing.junit5.ResourceExtension;
import jakarta.ws.rs.client.Entity;
import jakarta.ws.rs.client.Invocation;
import jakarta.ws.rs.core.Response;
import java.nio.charset.StandardCharsets;
import java.util.List;
import lab.responsetime.core.compression.Compression;
import lab.responsetime.core.dataset.Datasets;
import lab.responsetime.core.dataset.ObjectKind;
import lab.responsetime.core.formats.Format;
import lab.responsetime.core.ingest.IngestBodies;
import lab.responsetime.core.ingest.IngestLimits;
import lab.responsetime.core.ingest.Ingestion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;

/**
 * The resource tier of the collector: {@link IngestResource} and its mapper in Jersey's in-memory
 * container: the answer's shape, and refusals by their status, message, object and field.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class IngestResourceTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static final ResourceExtension RESOURCE =
            ResourceExtension.builder()
                    .addResource(
                            new IngestResource(
                                    new Ingestion(new IngestLimits(1 << 20, 4 << 20, 5000)),
                                    Datasets.loading(1, 10)))
                    .addProvider(new IngestRefusedMapper())
                    .build();

    /**
     * The bad-input table without Content-Encoding (Jersey's in-memory connector drops that header:
     * {@code IngestIntegrationTest} runs the table with every encoding against the real server).
     * Bodies: {@code B} a valid Book as JSON, {@code B(field:literal)} one with that field's value
     * replaced; {@code {E}} / {@code {A}} a valid Book as XML with elements / attributes; {@code
     * RAW:} the text as it is.
     */
    @ParameterizedTest(name = "{0} {1} → {2}")
    @CsvFileSource(
            resources = "/cases/IngestResourceTest.answersEveryBodyWithTheFirstProblemNamed.csv",
            delimiter = '|',
            quoteCharacter = '`',
            nullValues = "-")
    void answersEveryBodyWithTheFirstProblemNamed(
            String contentType,
            String template,
            int status,
            Integer object,
            String field,
            String message)
            throws Exception {
        byte[] body =
                template.startsWith("RAW:")
                        ? template.substring(4).getBytes(StandardCharsets.UTF_8)
                        : template.contains("<")
                                ? IngestBodies.xml(template)
                                : IngestBodies.json(template);
        Response response = post("books", contentType, null, body);
        if (status == 200) {
            assertThat(response.getStatus()).as(response.readEntity(String.class)).isEqualTo(200);
            return;
        }
        JsonNode error = error(response, status, message);
        assertThat(error.has("object") ? error.get("object").asInt() : null).isEqualTo(object);
        assertThat(error.has("field") ? error.get("field").asText() : null).isEqualTo(field);
    }

    @Test
    void answersASummaryAndServerTiming() throws Exception {
        byte[] body =
                IngestBodies.get(ObjectKind.VIDEOS, 25, Format.XML_ATTRIBUTES, Compression.NONE);
        Response response = post("videos", "application/xml", null, body);
        assertThat(response.getStatus()).isEqualTo(200);
        assertThat(response.getHeaderString("Cache-Control")).isEqualTo("no-store");
        assertThat(response.getHeaderString("Server-Timing"))
                .matches("receive;dur=[0-9]+\\.[0-9]{3}, decode;dur=[0-9]+\\.[0-9]{3}");
        JsonNode answer = JSON.readTree(response.readEntity(String.class));
        assertThat(answer.fieldNames())
                .toIterable()
                .containsExactly(
                        "kind",
                        "format",
                        "encoding",
                        "objects",
                        "bytes",
                        "decoded_bytes",
                        "receive_ms",
                        "inflate_ms",
                        "decode_ms");
        assertThat(answer.get("kind").asText()).isEqualTo("videos");
        assertThat(answer.get("format").asText()).isEqualTo("xml-attributes");
        assertThat(answer.get("encoding").asText()).isEqualTo("identity");
        assertThat(answer.get("objects").asInt()).isEqualTo(25);
        assertThat(answer.get("bytes").asLong()).isEqualTo(body.length);
        assertThat(answer.get("decoded_bytes").asLong()).isEqualTo(body.length);
        assertThat(answer.get("inflate_ms").asDouble()).isZero();
        for (String timing : List.of("receive_ms", "decode_ms")) {
            assertThat(answer.get(timing).isNumber()).isTrue();
        }
    }

    @Test
    void aBodyPastTheLimitIs413() throws Exception {
        byte[] body = IngestBodies.get(ObjectKind.BOOKS, 5000, Format.JSON, Compression.NONE);
        error(
                post("books", "application/json", null, body),
                413,
                "the body is larger than the limit of 1048576 bytes (ingest.maxBodyBytes)");
    }

    @Test
    void takesNoQueryParameters() throws Exception {
        Response response =
                RESOURCE.target("books")
                        .queryParam("count", 3)
                        .request()
                        .post(Entity.entity(IngestBodies.json("[B]"), "application/json"));
        error(response, 400, "POST /api/books takes no query parameters, got count");
    }

    private static Response post(String kind, String contentType, String encoding, byte[] body) {
        Invocation.Builder request = RESOURCE.target(kind).request();
        if (encoding != null) {
            request.header("Content-Encoding", encoding);
        }
        return request.post(Entity.entity(body, contentType));
    }

    private static JsonNode error(Response response, int status, String messagePart)
            throws Exception {
        String text = response.readEntity(String.class);
        assertThat(response.getStatus()).as(text).isEqualTo(status);
        assertThat(response.getMediaType().toString()).startsWith("application/json");
        JsonNode error = JSON.readTree(text);
        assertThat(error.path("code").asInt()).isEqualTo(status);
        assertThat(error.path("message").asText())
                .contains(messagePart)
                .doesNotContain("Exception");
        return error;
    }
}
