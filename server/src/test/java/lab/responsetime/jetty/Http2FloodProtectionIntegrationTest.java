package lab.responsetime.jetty;

import static lab.responsetime.testing.H2Frames.PREFACE;
import static lab.responsetime.testing.H2Frames.frame;
import static lab.responsetime.testing.H2Frames.get;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.configuration.ConfigurationException;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.DropwizardTestSupport;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import lab.responsetime.LabApplication;
import lab.responsetime.LabConfiguration;
import lab.responsetime.resources.TestApplication;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code tls.h2MaxRateControlledEventsPerSecond}, the limit of Jetty's HTTP/2 flood protection, on
 * the real application (docs/protocols.md#flood-protection). An HTTP/2 client over TLS sends, in
 * one burst, the frames a Go client such as Vegeta sends as it reads answers: WINDOW_UPDATE frames
 * for a stream the server has already closed, which Jetty counts. Three times the default limit
 * ends the connection with GOAWAY ENHANCE_YOUR_CALM under the default, and not under a raised
 * limit; {@code /api/info} shows the limit Jetty runs with; a bad value stops the start, saying
 * what is allowed.
 */
class Http2FloodProtectionIntegrationTest {
    private static final Path TLS = Path.of("target/it-tls-flood");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SETTING = "tls.h2MaxRateControlledEventsPerSecond";

    /** WINDOW_UPDATE frames for the closed stream, in one write: three times Jetty's default. */
    private static final int BURST =
            3 * RateControlledHttp2ConnectorFactory.JETTY_DEFAULT_EVENTS_PER_SECOND;

    /** HTTP/2's frame types and flags (RFC 9113 §6), and ENHANCE_YOUR_CALM's error code. */
    private static final int HEADERS = 0x1;

    private static final int SETTINGS = 0x4;
    private static final int PING = 0x6;
    private static final int GOAWAY = 0x7;
    private static final int WINDOW_UPDATE = 0x8;
    private static final int END_STREAM = 0x1;
    private static final int ACK = 0x1;
    private static final int END_HEADERS = 0x4;
    private static final int ENHANCE_YOUR_CALM = 0xb;

    static {
        TestApplication.makeTlsKey(TLS);
    }

    private static DropwizardTestSupport<LabConfiguration> app(ConfigOverride... more) {
        List<ConfigOverride> overrides =
                new ArrayList<>(
                        List.of(
                                ConfigOverride.config("server.applicationConnectors[0].port", "0"),
                                ConfigOverride.config("server.adminConnectors[0].port", "0"),
                                ConfigOverride.config(
                                        "server.requestLog.appenders[0].threshold", "OFF"),
                                ConfigOverride.config("dataset.size", "100"),
                                ConfigOverride.config("dataset.directory", "target/it-data-flood"),
                                ConfigOverride.config("client.directory", "../client"),
                                ConfigOverride.config(
                                        "tls.keyStore", TLS.resolve("localhost.p12").toString()),
                                ConfigOverride.config("tls.http11Port", "0"),
                                ConfigOverride.config("tls.h2Port", "0")));
        overrides.addAll(Arrays.asList(more));
        return new DropwizardTestSupport<>(
                LabApplication.class, (String) null, overrides.toArray(new ConfigOverride[0]));
    }

    /** The HTTP/2 connector's entry in /api/info. */
    private static JsonNode h2Connector(DropwizardTestSupport<LabConfiguration> app)
            throws Exception {
        HttpResponse<String> info =
                HttpClient.newHttpClient()
                        .send(
                                HttpRequest.newBuilder(
                                                URI.create(
                                                        "http://localhost:"
                                                                + app.getLocalPort()
                                                                + "/api/info"))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString());
        for (JsonNode protocol : JSON.readTree(info.body()).get("protocols")) {
            if (protocol.get("name").asText().equals("h2")) {
                return protocol;
            }
        }
        throw new AssertionError("no h2 connector in /api/info: " + info.body());
    }

    @ParameterizedTest(name = "limit {0}: the connection {1}")
    @CsvSource({"'', ends", "10000, holds"})
    void windowUpdatesForAClosedStreamEndTheConnectionOnlyAboveTheLimit(
            String limit, String expected) throws Exception {
        DropwizardTestSupport<LabConfiguration> app =
                limit.isEmpty() ? app() : app(ConfigOverride.config(SETTING, limit));
        app.before();
        try {
            JsonNode connector = h2Connector(app);
            int applied = connector.get("max_rate_controlled_events_per_s").asInt();
            assertThat(applied)
                    .isEqualTo(
                            limit.isEmpty()
                                    ? RateControlledHttp2ConnectorFactory
                                            .JETTY_DEFAULT_EVENTS_PER_SECOND
                                    : Integer.parseInt(limit));
            List<Frame> after = burstAfterOneAnswer(connector.get("port").asInt());
            assertThat(after).isNotEmpty();
            if (expected.equals("ends")) {
                Frame goAway = after.get(after.size() - 1);
                assertThat(goAway.type).as("%s", after).isEqualTo(GOAWAY);
                assertThat(goAway.errorCode()).isEqualTo(ENHANCE_YOUR_CALM);
                assertThat(goAway.debugText()).contains("window_update");
                assertThat(after).noneMatch(f -> f.type == PING);
            } else {
                assertThat(after).noneMatch(f -> f.type == GOAWAY);
                Frame pong = after.get(after.size() - 1);
                assertThat(pong.type).as("%s", after).isEqualTo(PING);
                assertThat(pong.flags & ACK).isEqualTo(ACK);
            }
        } finally {
            app.after();
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"-1", "0"})
    void aLimitBelowOneStopsTheStart(String value) {
        assertThatThrownBy(() -> app(ConfigOverride.config(SETTING, value)).before())
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining(SETTING)
                .hasMessageContaining("must be at least 1");
    }

    @Test
    void aLimitThatIsNotAWholeNumberStopsTheStart() {
        assertThatThrownBy(() -> app(ConfigOverride.config(SETTING, "many")).before())
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining(SETTING)
                .hasMessageContaining("expected: int");
    }

    /**
     * Over a new HTTP/2 connection: one GET on stream 1, read to its end; a PING answered (by then
     * the server has closed stream 1); then {@link #BURST} WINDOW_UPDATE frames for stream 1 and a
     * PING in one write. Returns the frames the server sent after that write, up to the PING's
     * answer or the end of the connection.
     */
    private static List<Frame> burstAfterOneAnswer(int port) throws Exception {
        try (SSLSocket socket =
                (SSLSocket)
                        TestApplication.trustingOnly(TLS.resolve("localhost.pem"))
                                .getSocketFactory()
                                .createSocket("localhost", port)) {
            SSLParameters parameters = socket.getSSLParameters();
            parameters.setApplicationProtocols(new String[] {"h2"});
            socket.setSSLParameters(parameters);
            socket.setSoTimeout(30_000);
            socket.startHandshake();
            assertThat(socket.getApplicationProtocol()).isEqualTo("h2");
            OutputStream out = socket.getOutputStream();
            DataInputStream in = new DataInputStream(socket.getInputStream());

            ByteArrayOutputStream opening = new ByteArrayOutputStream();
            opening.write(PREFACE);
            opening.write(frame(SETTINGS, 0, 0, new byte[0]));
            opening.write(
                    frame(
                            HEADERS,
                            END_HEADERS | END_STREAM,
                            1,
                            get("/api/books?count=10&format=json")));
            out.write(opening.toByteArray());
            out.flush();
            readUntil(in, out, f -> f.stream == 1 && (f.flags & END_STREAM) != 0);
            out.write(frame(PING, 0, 0, "answered".getBytes(StandardCharsets.US_ASCII)));
            out.flush();
            readUntil(in, out, f -> f.type == PING);

            ByteArrayOutputStream burst = new ByteArrayOutputStream();
            for (int i = 0; i < BURST; i++) {
                burst.write(
                        frame(WINDOW_UPDATE, 0, 1, ByteBuffer.allocate(4).putInt(4096).array()));
            }
            burst.write(frame(PING, 0, 0, "survived".getBytes(StandardCharsets.US_ASCII)));
            out.write(burst.toByteArray());
            out.flush();
            return readUntil(in, out, f -> f.type == PING || f.type == GOAWAY);
        }
    }

    /** One frame the server sent. */
    private record Frame(int type, int flags, int stream, byte[] payload) {
        int errorCode() {
            return ByteBuffer.wrap(payload, 4, 4).getInt();
        }

        String debugText() {
            return new String(payload, 8, payload.length - 8, StandardCharsets.US_ASCII);
        }

        @Override
        public String toString() {
            return "type " + type + " flags " + flags + " stream " + stream;
        }
    }

    /**
     * Reads frames until one matches {@code last} (included) or the connection ends, answering the
     * server's SETTINGS; returns them.
     */
    private static List<Frame> readUntil(
            DataInputStream in, OutputStream out, Predicate<Frame> last) throws IOException {
        List<Frame> frames = new ArrayList<>();
        while (true) {
            byte[] header = new byte[9];
            try {
                in.readFully(header);
            } catch (EOFException e) {
                return frames;
            }
            ByteBuffer h = ByteBuffer.wrap(header);
            int length = ((h.get() & 0xff) << 16) | ((h.get() & 0xff) << 8) | (h.get() & 0xff);
            int type = h.get() & 0xff;
            int flags = h.get() & 0xff;
            int stream = h.getInt() & 0x7fffffff;
            byte[] payload = new byte[length];
            in.readFully(payload);
            Frame frame = new Frame(type, flags, stream, payload);
            frames.add(frame);
            if (type == SETTINGS && (flags & ACK) == 0) {
                out.write(frame(SETTINGS, ACK, 0, new byte[0]));
                out.flush();
            }
            if (last.test(frame) || type == GOAWAY) {
                return frames;
            }
        }
    }
}
