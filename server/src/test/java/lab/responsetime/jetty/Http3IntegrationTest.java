package lab.responsetime.jetty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.configuration.ConfigurationException;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.DropwizardTestSupport;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import lab.responsetime.LabApplication;
import lab.responsetime.LabConfiguration;
import lab.responsetime.resources.TestApplication;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.http3.client.HTTP3Client;
import org.eclipse.jetty.http3.client.HTTP3ClientQuicConfiguration;
import org.eclipse.jetty.http3.client.transport.HttpClientTransportOverHTTP3;
import org.eclipse.jetty.io.ClientConnector;
import org.eclipse.jetty.quic.quiche.client.QuicheClientQuicConfiguration;
import org.eclipse.jetty.quic.quiche.client.QuicheTransport;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The h3 connector on the real application (docs/protocols.md): listed in {@code /api/info} with
 * its real UDP port, and answering, to Jetty's own HTTP/3 client over QUIC (on the same native
 * library), the bytes the cleartext HTTP/1.1 connector answers; the TCP connectors do not advertise
 * it (no Alt-Svc). Without the library the server starts without h3 and says why; a bad {@code
 * tls.h3Port} stops the start. The tests that need the library are skipped, saying so, where the
 * set-up could not build it ({@code scripts/quiche.sh}).
 */
class Http3IntegrationTest {
    static final Path TLS = Path.of("target/it-tls-h3");
    static final Path QUICHE = Path.of("../tools/quiche");
    private static final ObjectMapper JSON = new ObjectMapper();

    private static DropwizardTestSupport<LabConfiguration> app;
    private static org.eclipse.jetty.client.HttpClient http3;

    static {
        TestApplication.makeTlsKey(TLS);
    }

    /**
     * The application with the test's settings, and {@code more} ({@code key, value, …}) in place
     * of them: one override per key, since Dropwizard's test support restores a key set twice to
     * the first value when it stops.
     */
    static DropwizardTestSupport<LabConfiguration> app(String... more) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("server.applicationConnectors[0].port", "0");
        settings.put("server.adminConnectors[0].port", "0");
        settings.put("dataset.size", "1000");
        settings.put("dataset.directory", "target/it-data-h3");
        settings.put("client.directory", "../client");
        settings.put("tls.keyStore", TLS.resolve("localhost.p12").toString());
        settings.put("tls.http11Port", "0");
        settings.put("tls.h2Port", "0");
        settings.put("tls.h3Port", "0");
        settings.put("tls.quicheDirectory", QUICHE.toString());
        for (int i = 0; i < more.length; i += 2) {
            settings.put(more[i], more[i + 1]);
        }
        return new DropwizardTestSupport<>(
                LabApplication.class,
                (String) null,
                settings.entrySet().stream()
                        .map(setting -> ConfigOverride.config(setting.getKey(), setting.getValue()))
                        .toArray(ConfigOverride[]::new));
    }

    static boolean quicheBuilt() {
        return Files.isRegularFile(QUICHE.resolve(QuicheLibrary.FILE_NAME));
    }

    @BeforeAll
    static void start() throws Exception {
        app = app();
        app.before();
        if (!quicheBuilt()) {
            return;
        }
        http3 = newHttp3Client();
        http3.start();
        // The bodies as the server sent them: Jetty's client would otherwise undo GZIP itself (it
        // adds its decoders as it starts).
        http3.getContentDecoderFactories().clear();
    }

    /**
     * Jetty's HTTP/3 client on the set-up's QUIC library, not started. It does not verify the
     * server's certificate: quiche's BoringSSL builds no chain from the set-up's self-signed
     * certificate (its key usage is digitalSignature only, so it cannot be its own issuer) and ends
     * the handshake with UNKNOWN_CA. The browsers trust that certificate by its key or their own
     * store (docs/protocols.md); here the test is the bytes.
     */
    static org.eclipse.jetty.client.HttpClient newHttp3Client() throws Exception {
        ClientConnector connector = new ClientConnector();
        connector.setSslContextFactory(new SslContextFactory.Client(true));
        Path pem = Files.createDirectories(Path.of("target/it-h3-client-pem"));
        QuicheClientQuicConfiguration quic =
                HTTP3ClientQuicConfiguration.configure(new QuicheClientQuicConfiguration(pem));
        return new org.eclipse.jetty.client.HttpClient(
                new HttpClientTransportOverHTTP3(
                        new HTTP3Client(quic, connector), new QuicheTransport(quic)));
    }

    /**
     * The server first: it closes its QUIC sessions with the client, which answers. A client that
     * stopped first would leave them for the server to wait out (their idle timeout).
     */
    @AfterAll
    static void stop() throws Exception {
        try {
            app.after();
        } finally {
            if (http3 != null) {
                http3.stop();
            }
        }
    }

    static JsonNode info(DropwizardTestSupport<LabConfiguration> server) throws Exception {
        HttpResponse<String> info =
                HttpClient.newHttpClient()
                        .send(
                                HttpRequest.newBuilder(
                                                URI.create(
                                                        "http://localhost:"
                                                                + server.getLocalPort()
                                                                + "/api/info"))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString());
        return JSON.readTree(info.body());
    }

    static JsonNode h3Entry(JsonNode info) {
        for (JsonNode protocol : info.get("protocols")) {
            if (protocol.get("name").asText().equals("h3")) {
                return protocol;
            }
        }
        return null;
    }

    @Test
    void infoListsH3WithItsRealPort() throws Exception {
        assumeTrue(
                quicheBuilt(),
                "no " + QUICHE.resolve("libquiche.so") + " (scripts/quiche.sh builds it)");
        JsonNode info = info(app);
        JsonNode h3 = h3Entry(info);
        assertThat(h3).as("h3 in %s", info).isNotNull();
        assertThat(h3.get("scheme").asText()).isEqualTo("https");
        assertThat(h3.get("port").asInt()).isPositive();
        assertThat(info.get("protocols_note")).isNull();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "/api/books?count=50&format=protobuf&compression=br",
                "/api/videos?count=20&format=xml&compression=gzip",
                "/api/books?count=1000&format=json&compression=zstd",
                "/api/books?count=30&format=cbor&cm=3"
            })
    void h3AnswersTheBytesOfCleartextHttp11(String path) throws Exception {
        assumeTrue(
                quicheBuilt(),
                "no " + QUICHE.resolve("libquiche.so") + " (scripts/quiche.sh builds it)");
        int port = h3Entry(info(app)).get("port").asInt();
        ContentResponse overH3 =
                http3.newRequest("https://localhost:" + port + path)
                        .timeout(30, TimeUnit.SECONDS)
                        .send();
        assertThat(overH3.getStatus()).isEqualTo(200);
        assertThat(overH3.getVersion()).isEqualTo(HttpVersion.HTTP_3);
        assertThat(overH3.getHeaders().get("cross-origin-embedder-policy"))
                .isEqualTo("require-corp");
        HttpResponse<byte[]> overHttp11 =
                HttpClient.newHttpClient()
                        .send(
                                HttpRequest.newBuilder(
                                                URI.create(
                                                        "http://localhost:"
                                                                + app.getLocalPort()
                                                                + path))
                                        .build(),
                                HttpResponse.BodyHandlers.ofByteArray());
        assertThat(overHttp11.statusCode()).isEqualTo(200);
        assertThat(overH3.getHeaders().get("content-encoding"))
                .isEqualTo(overHttp11.headers().firstValue("content-encoding").orElse(null));
        assertThat(overH3.getContent()).isEqualTo(overHttp11.body());
    }

    /**
     * Each TCP connector over TLS, over HTTP/2 where it offers it, trusting only the set-up's key.
     */
    @ParameterizedTest
    @ValueSource(strings = {"http1.1-tls", "h2"})
    void noTcpConnectorAdvertisesH3(String protocol) throws Exception {
        assumeTrue(
                quicheBuilt(),
                "no " + QUICHE.resolve("libquiche.so") + " (scripts/quiche.sh builds it)");
        SSLContext tls = TestApplication.trustingOnly(TLS.resolve("localhost.pem"));
        int port = 0;
        for (JsonNode entry : info(app).get("protocols")) {
            if (entry.get("name").asText().equals(protocol)) {
                port = entry.get("port").asInt();
            }
        }
        HttpResponse<Void> response =
                HttpClient.newBuilder()
                        .version(HttpClient.Version.HTTP_2)
                        .sslContext(tls)
                        .build()
                        .send(
                                HttpRequest.newBuilder(
                                                URI.create(
                                                        "https://localhost:"
                                                                + port
                                                                + "/api/books?count=1"))
                                        .build(),
                                HttpResponse.BodyHandlers.discarding());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.version())
                .isEqualTo(
                        protocol.equals("h2")
                                ? HttpClient.Version.HTTP_2
                                : HttpClient.Version.HTTP_1_1);
        assertThat(response.headers().firstValue("alt-svc")).isEmpty();
    }

    @Test
    void withoutTheLibraryTheServerStartsWithoutH3AndSaysWhy(@TempDir Path empty) throws Exception {
        DropwizardTestSupport<LabConfiguration> without =
                app(
                        "tls.quicheDirectory", empty.toString(),
                        "dataset.size", "100",
                        "dataset.directory", "target/it-data-h3-none");
        without.before();
        try {
            JsonNode info = info(without);
            assertThat(h3Entry(info)).isNull();
            List<String> names = new ArrayList<>();
            info.get("protocols").forEach(p -> names.add(p.get("name").asText()));
            assertThat(names).containsExactly("http1.1", "http1.1-tls", "h2");
            assertThat(info.get("protocols_note").asText())
                    .startsWith("no h3 connector: the QUIC library ")
                    .contains(empty.toAbsolutePath().resolve("libquiche.so").toString())
                    .endsWith("is missing (scripts/quiche.sh builds it)");
        } finally {
            without.after();
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"-1, must be greater than or equal to 0", "65536, must be less than or equal to"})
    void aPortOutOfRangeStopsTheStart(String value, String message) {
        assertThatThrownBy(() -> app("tls.h3Port", value).before())
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("tls.h3Port")
                .hasMessageContaining(message);
    }

    @Test
    void aPortThatIsNotAWholeNumberStopsTheStart() {
        assertThatThrownBy(() -> app("tls.h3Port", "udp").before())
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("tls.h3Port")
                .hasMessageContaining("expected: Integer");
    }
}
