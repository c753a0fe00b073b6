package lab.responsetime.resources;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import javax.net.ssl.SSLContext;
import lab.responsetime.LabConfiguration;
import org.eclipse.jetty.server.AbstractConnector;
import org.eclipse.jetty.server.Connector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The real application with the set-up's TLS key (made by {@code scripts/tls-key.sh}, as the set-up
 * makes it): cleartext HTTP/1.1, HTTP/1.1 over TLS and HTTP/2 on their own connectors, each listed
 * with its real port in {@code /api/info}, each negotiating its own protocol with a client that
 * trusts only that certificate, and each answering the same bytes (one encoder behind all).
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class ProtocolsIntegrationTest {
    private static final Path TLS = Path.of("target/it-tls");
    private static final ObjectMapper JSON = new ObjectMapper();

    static {
        TestApplication.makeTlsKey(TLS);
    }

    private static final DropwizardAppExtension<LabConfiguration> APP =
            TestApplication.boot(
                    1000,
                    "target/it-data-protocols",
                    ConfigOverride.config("tls.keyStore", TLS.resolve("localhost.p12").toString()),
                    ConfigOverride.config("tls.http11Port", "0"),
                    ConfigOverride.config("tls.h2Port", "0"));

    /** A client that trusts the set-up's certificate, and nothing else. */
    private static HttpClient client(HttpClient.Version version) throws Exception {
        SSLContext tls = TestApplication.trustingOnly(TLS.resolve("localhost.pem"));
        return HttpClient.newBuilder()
                .version(version)
                .sslContext(tls)
                .connectTimeout(Duration.ofSeconds(5))
                .build();
    }

    /** Each protocol's origin, from /api/info (the ports the system picked). */
    private static Map<String, String> origins() throws Exception {
        HttpResponse<String> info =
                client(HttpClient.Version.HTTP_1_1)
                        .send(
                                HttpRequest.newBuilder(
                                                URI.create(
                                                        "http://localhost:"
                                                                + APP.getLocalPort()
                                                                + "/api/info"))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString());
        Map<String, String> origins = new HashMap<>();
        for (JsonNode protocol : JSON.readTree(info.body()).get("protocols")) {
            origins.put(
                    protocol.get("name").asText(),
                    protocol.get("scheme").asText()
                            + "://localhost:"
                            + protocol.get("port").asInt());
        }
        return origins;
    }

    @Test
    void infoListsEachProtocolWithItsRealPort() throws Exception {
        Map<String, String> origins = origins();
        assertThat(origins).containsOnlyKeys("http1.1", "http1.1-tls", "h2");
        assertThat(origins.get("http1.1")).isEqualTo("http://localhost:" + APP.getLocalPort());
        assertThat(origins.get("http1.1-tls")).startsWith("https://").doesNotEndWith(":0");
        assertThat(origins.get("h2"))
                .startsWith("https://")
                .isNotEqualTo(origins.get("http1.1-tls"));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "/api/books?count=50&format=protobuf&compression=br",
                "/api/videos?count=20&format=xml&compression=gzip",
                "/api/books?count=30&format=json&cm=3"
            })
    void eachProtocolNegotiatesItselfAndAnswersTheSameBytes(String path) throws Exception {
        Map<String, String> origins = origins();
        Map<String, HttpClient.Version> asked =
                Map.of(
                        "http1.1", HttpClient.Version.HTTP_1_1,
                        "http1.1-tls", HttpClient.Version.HTTP_2,
                        "h2", HttpClient.Version.HTTP_2);
        // What each should negotiate: a client offering h2 gets it only where the connector has it.
        Map<String, HttpClient.Version> expected =
                Map.of(
                        "http1.1", HttpClient.Version.HTTP_1_1,
                        "http1.1-tls", HttpClient.Version.HTTP_1_1,
                        "h2", HttpClient.Version.HTTP_2);
        byte[] reference = null;
        for (String protocol : new String[] {"http1.1", "http1.1-tls", "h2"}) {
            HttpResponse<byte[]> response =
                    client(asked.get(protocol))
                            .send(
                                    HttpRequest.newBuilder(URI.create(origins.get(protocol) + path))
                                            .build(),
                                    HttpResponse.BodyHandlers.ofByteArray());
            assertThat(response.statusCode()).as(protocol).isEqualTo(200);
            assertThat(response.version()).as(protocol).isEqualTo(expected.get(protocol));
            assertThat(response.headers().firstValue("cross-origin-embedder-policy"))
                    .as(protocol)
                    .hasValue("require-corp");
            if (reference == null) {
                reference = response.body();
            } else {
                assertThat(response.body()).as(protocol).isEqualTo(reference);
            }
        }
    }

    @Test
    void aBadRequestIsRefusedWithJsonOverHttp2Too() throws Exception {
        HttpResponse<String> response =
                client(HttpClient.Version.HTTP_2)
                        .send(
                                HttpRequest.newBuilder(
                                                URI.create(
                                                        origins().get("h2") + "/api/books?count=0"))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString());
        assertThat(response.version()).isEqualTo(HttpClient.Version.HTTP_2);
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(response.body()).get("message").asText()).contains("count");
    }

    /**
     * An idle keep-alive connection, on every connector the server has, closes within 100 ms of the
     * server's stop rather than Jetty's 1 s default, which took half of the 2 s grace and, on a
     * loaded machine, ended a stop with a TimeoutException.
     */
    @Test
    void everyConnectorClosesItsIdleConnectionsPromptlyOnStop() {
        Connector[] connectors =
                APP.getEnvironment().getApplicationContext().getServer().getConnectors();
        assertThat(connectors).hasSizeGreaterThanOrEqualTo(4); // cleartext, TLS, HTTP/2, admin
        for (Connector connector : connectors) {
            assertThat(((AbstractConnector) connector).getShutdownIdleTimeout())
                    .as(connector.getName())
                    .isEqualTo(100);
        }
    }
}
