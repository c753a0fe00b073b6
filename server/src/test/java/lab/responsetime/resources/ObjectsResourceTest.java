package lab.responsetime.resources;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.dropwizard.testing.junit5.ResourceExtension;
import jakarta.ws.rs.core.Response;
import java.time.Duration;
import lab.responsetime.core.StudyService;
import lab.responsetime.core.computation.ComputationLimiter;
import lab.responsetime.core.computation.WorkBudget;
import lab.responsetime.core.dataset.Dataset;
import lab.responsetime.core.dataset.DatasetGenerator;
import lab.responsetime.core.dataset.Datasets;
import lab.responsetime.core.dataset.ObjectKind;
import lab.responsetime.core.formats.BodyWriter;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The resource tier: {@link ObjectsResource} with its mappers and writer in Jersey's in-memory
 * container, without the application. Every parameter's allowed values answer 200 and its refused
 * values 400 with a JSON body saying what is allowed — for GET and HEAD alike.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class ObjectsResourceTest {
    private static final int SIZE = 50;
    private static final ObjectMapper JSON = new ObjectMapper();

    private static final ResourceExtension RESOURCE =
            ResourceExtension.builder()
                    .addResource(
                            new ObjectsResource(
                                    new StudyService(
                                            new Datasets(
                                                    1,
                                                    SIZE,
                                                    Dataset.of(
                                                            ObjectKind.BOOKS,
                                                            DatasetGenerator.books(1, SIZE)),
                                                    Dataset.of(
                                                            ObjectKind.VIDEOS,
                                                            DatasetGenerator.videos(1, SIZE))),
                                            new ComputationLimiter(1, 0, Duration.ofSeconds(5)),
                                            new WorkBudget(1e4))))
                    .addProvider(new PayloadWriter(new BodyWriter(4096)))
                    .addProvider(new InvalidParametersMapper())
                    .addProvider(new WorkTooLargeMapper())
                    .addProvider(new RetryLaterMapper())
                    .addProvider(new CancelledMapper())
                    .addProvider(new CancelledMapper.WhileWriting())
                    .addProvider(NotFoundMapper.class)
                    .build();

    @ParameterizedTest(name = "{0}={1} → {2}")
    @CsvSource(
            delimiter = '|',
            textBlock =
                    """
                    count       | 1          | 200 |
                    count       | 10         | 200 |
                    count       | 50         | 200 |
                    count       | 0          | 400 | count must be an integer between 1 and 50, got "0"
                    count       | 51         | 400 | count must be an integer between 1 and 50, got "51"
                    count       | -1         | 400 | count must be an integer between 1 and 50
                    count       | 2147483648 | 400 | count must be an integer between 1 and 50
                    count       | 99999999999999999999 | 400 | count must be an integer between 1 and 50
                    count       | 1.5        | 400 | count must be an integer
                    count       | 1e3        | 400 | count must be an integer
                    count       | +1         | 400 | count must be an integer
                    count       | 0x10       | 400 | count must be an integer
                    count       | ''         | 400 | count must be an integer
                    format      | json       | 200 |
                    format      | xml        | 200 |
                    format      | protobuf   | 200 |
                    format      | JSON       | 400 | format must be one of json, protobuf, xml, xml-attributes, cbor, msgpack, got "JSON"
                    format      | csv        | 400 | format must be one of json, protobuf, xml, xml-attributes, cbor, msgpack
                    format      | ''         | 400 | format must be one of
                    compression | none       | 200 |
                    compression | gzip       | 200 |
                    compression | deflate    | 200 |
                    compression | br         | 200 |
                    compression | zstd       | 200 |
                    compression | GZIP       | 400 | compression must be one of none, gzip, deflate, br, zstd, got "GZIP"
                    compression | brotli     | 400 | compression must be one of none, gzip, deflate, br, zstd
                    compression | ''         | 400 | compression must be one of
                    level       | 1          | 400 | level is only for a compression (gzip 1–9, deflate 1–9, br 0–11, zstd 1–19); compression=none takes none
                    cm          | 0          | 200 |
                    cm          | 1          | 200 |
                    cm          | 2          | 200 |
                    cm          | 3          | 200 |
                    cm          | 4          | 422 | cm=4 on 10 books needs an estimated
                    cm          | 5          | 422 | At cm=5 the limit allows count up to
                    cm          | 6          | 400 | cm must be an integer between 0 and 5, got "6"
                    cm          | -1         | 400 | cm must be an integer between 0 and 5
                    cm          | two        | 400 | cm must be an integer between 0 and 5
                    sort        | author     | 400 | unknown parameter "sort"; allowed parameters are count, format, compression, level, cm
                    """)
    void everyParameterValueIsAllowedOrRefusedWithWhatIsAllowed(
            String name, String value, int status, String message) throws Exception {
        for (String kind : new String[] {"books", "videos"}) {
            Response get = RESOURCE.target(kind).queryParam(name, value).request().get();
            assertThat(get.getStatus())
                    .as("GET " + kind + " " + name + "=" + value)
                    .isEqualTo(status);
            if (status != 200) {
                assertJsonError(get, status, message == null ? "" : message.replace("books", kind));
            }
            Response head = RESOURCE.target(kind).queryParam(name, value).request().head();
            assertThat(head.getStatus())
                    .as("HEAD " + kind + " " + name + "=" + value)
                    .isEqualTo(status);
            assertThat(head.hasEntity()).isFalse();
        }
    }

    @ParameterizedTest(name = "{0}={1}&level={2} → {3}")
    @CsvSource(
            delimiter = '|',
            textBlock =
                    """
                    gzip        | 1          | 200 |
                    gzip        | 9          | 200 |
                    gzip        | 0          | 400 | level must be an integer between 1 and 9 for compression=gzip (default 6), got "0"
                    gzip        | 10         | 400 | level must be an integer between 1 and 9 for compression=gzip (default 6), got "10"
                    deflate     | 1          | 200 |
                    deflate     | 9          | 200 |
                    deflate     | 0          | 400 | level must be an integer between 1 and 9 for compression=deflate (default 6), got "0"
                    br          | 0          | 200 |
                    br          | 11         | 200 |
                    br          | 12         | 400 | level must be an integer between 0 and 11 for compression=br (default 6), got "12"
                    br          | -1         | 400 | level must be an integer between 0 and 11 for compression=br (default 6), got "-1"
                    zstd        | 1          | 200 |
                    zstd        | 19         | 200 |
                    zstd        | 0          | 400 | level must be an integer between 1 and 19 for compression=zstd (default 3; the ultra levels 20–22 are refused: they need hundreds of MB of memory per stream), got "0"
                    zstd        | 20         | 400 | the ultra levels 20–22 are refused
                    zstd        | 22         | 400 | the ultra levels 20–22 are refused
                    zstd        | 2.5        | 400 | level must be an integer between 1 and 19 for compression=zstd
                    zstd        | ''         | 400 | level must be an integer between 1 and 19 for compression=zstd
                    none        | 0          | 400 | level is only for a compression (gzip 1–9, deflate 1–9, br 0–11, zstd 1–19); compression=none takes none
                    """)
    void everyCompressionsLevelsAreAllowedOrRefusedWithWhatIsAllowed(
            String compression, String level, int status, String message) throws Exception {
        for (String kind : new String[] {"books", "videos"}) {
            Response get =
                    RESOURCE.target(kind)
                            .queryParam("compression", compression)
                            .queryParam("level", level)
                            .request()
                            .get();
            assertThat(get.getStatus())
                    .as("GET " + kind + " " + compression + " " + level)
                    .isEqualTo(status);
            if (status == 200) {
                assertThat(get.getHeaderString("Content-Encoding")).isEqualTo(compression);
                assertThat(get.getHeaderString("Server-Timing")).contains("compress;dur=");
            } else {
                assertJsonError(get, status, message);
            }
            Response head =
                    RESOURCE.target(kind)
                            .queryParam("compression", compression)
                            .queryParam("level", level)
                            .request()
                            .head();
            assertThat(head.getStatus())
                    .as("HEAD " + kind + " " + compression + " " + level)
                    .isEqualTo(status);
        }
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            textBlock =
                    """
                    count=1&count=2        | parameter "count" is given 2 times; give it once
                    cm=9&format=csv        | format must be one of json, protobuf, xml, xml-attributes, cbor, msgpack, got "csv"; cm must be an integer between 0 and 5, got "9"
                    compression=zip&level=99 | compression must be one of none, gzip, deflate, br, zstd, got "zip"
                    level=3&cm=7           | level is only for a compression (gzip 1–9, deflate 1–9, br 0–11, zstd 1–19); compression=none takes none; cm must be an integer between 0 and 5, got "7"
                    """)
    void repeatedParametersAndEveryProblemAtOnce(String query, String message) throws Exception {
        Response response =
                RESOURCE.target("books")
                        .queryParam(query.split("=")[0], query.split("[=&]")[1])
                        .queryParam(
                                query.split("&")[1].split("=")[0],
                                query.split("&")[1].split("=")[1])
                        .request()
                        .get();
        assertJsonError(response, 400, message);
        if (query.startsWith("compression=zip")) {
            assertThat(body(response).path("message").asText())
                    .as("a level is not judged without its compression")
                    .doesNotContain("level");
        }
    }

    private static void assertJsonError(Response response, int status, String messagePart)
            throws Exception {
        assertThat(response.getStatus()).isEqualTo(status);
        assertThat(response.getMediaType().toString()).startsWith("application/json");
        JsonNode body = body(response);
        assertThat(body.path("code").asInt()).isEqualTo(status);
        assertThat(body.path("message").asText()).contains(messagePart);
    }

    private static JsonNode body(Response response) throws Exception {
        response.bufferEntity();
        return JSON.readTree(response.readEntity(String.class));
    }
}
