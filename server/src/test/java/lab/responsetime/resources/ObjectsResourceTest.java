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
import org.junit.jupiter.params.provider.CsvFileSource;

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
    @CsvFileSource(
            resources =
                    "/cases/ObjectsResourceTest.everyParameterValueIsAllowedOrRefusedWithWhatIsAllowed.csv",
            delimiter = '|',
            quoteCharacter = '\'')
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
    @CsvFileSource(
            resources =
                    "/cases/ObjectsResourceTest.everyCompressionsLevelsAreAllowedOrRefusedWithWhatIsAllowed.csv",
            delimiter = '|',
            quoteCharacter = '\'')
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
    @CsvFileSource(
            resources = "/cases/ObjectsResourceTest.repeatedParametersAndEveryProblemAtOnce.csv",
            delimiter = '|',
            quoteCharacter = '\'')
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
