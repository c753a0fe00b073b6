package lab.responsetime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import lab.responsetime.LabConfiguration.TlsSettings;
import lab.responsetime.resources.TestApplication;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The server as a process, the way {@code mvn exec:java} runs it: it stops when the process it
 * serves ({@code exitWith}) is killed; a second server started with only its cleartext port changed
 * starts, its TLS ports following that port; and a port that is taken stops the start with one line
 * that names the setting to change, not a stack trace.
 */
class ServerProcessTest {
    private static final Path TLS = Path.of("target/it-tls-process");
    private static final Path QUICHE = Path.of("../tools/quiche").toAbsolutePath();

    /**
     * How soon the server exits once the process it serves is gone: Java learns of a process that
     * is not its child by looking for it about once a second, then Jetty stops gracefully.
     */
    private static final Duration EXITS_WITHIN = Duration.ofSeconds(10);

    private static final ObjectMapper JSON = new ObjectMapper();

    static {
        TestApplication.makeTlsKey(TLS);
    }

    private final HttpClient http =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final List<Process> started = new ArrayList<>();
    private final Set<Integer> given = new HashSet<>();

    @AfterEach
    void stopEverything() throws Exception {
        for (Process process : started) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    /**
     * Two servers side by side, the second started with only its cleartext port changed; the first
     * serves a process ({@code exitWith}) that is then killed.
     */
    @Test
    void aSecondServerWithOnlyItsPortChangedStartsAndAServerExitsWhenTheProcessItServesIsKilled()
            throws Exception {
        Process served = start(new ProcessBuilder("sleep", "600"));
        Started one = startReady("-Ddw.exitWith=" + served.pid());
        Started two = startReady();
        int first = one.port();
        int second = two.port();
        for (int port : new int[] {first, second}) {
            Map<String, Integer> ports = ports(info(port));
            assertThat(ports.get("http1.1")).isEqualTo(port);
            assertThat(ports.get("http1.1-tls")).isEqualTo(port + TlsSettings.HTTP11_PORT_OFFSET);
            assertThat(ports.get("h2")).isEqualTo(port + TlsSettings.H2_PORT_OFFSET);
            if (ports.containsKey("h3")) {
                assertThat(ports.get("h3")).isEqualTo(port + TlsSettings.H3_PORT_OFFSET);
            }
        }
        assertThat(info(first).path("process").path("exit_with").asLong()).isEqualTo(served.pid());
        assertThat(info(second).path("process").path("exit_with").isNull()).isTrue();

        served.destroyForcibly(); // SIGKILL
        long killed = System.nanoTime();
        assertThat(one.process().waitFor(EXITS_WITHIN.toMillis(), TimeUnit.MILLISECONDS))
                .as("exited within " + EXITS_WITHIN + " of the served process's end")
                .isTrue();
        assertThat(Duration.ofNanos(System.nanoTime() - killed)).isLessThan(EXITS_WITHIN);
        assertThat(one.process().exitValue()).as("a graceful stop").isZero();
        assertThat(two.process().isAlive()).as("the other server serves no one").isTrue();
    }

    @Test
    void aTakenPortStopsTheStartWithOneLineNamingTheSetting() throws Exception {
        int port = freePorts();
        int taken = freePorts() + TlsSettings.H2_PORT_OFFSET;
        try (ServerSocket holder = new ServerSocket()) {
            holder.bind(new InetSocketAddress("127.0.0.1", taken));
            Process server =
                    start(command(port, "-Ddw.tls.h2Port=" + taken).redirectErrorStream(true));
            assertThat(server.waitFor(120, TimeUnit.SECONDS)).as("it stopped").isTrue();
            String said =
                    new String(server.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(server.exitValue()).isNotZero();
            List<String> lines = said.lines().filter(line -> !line.startsWith("INFO ")).toList();
            assertThat(lines)
                    .as(said)
                    .containsExactly(
                            "TCP port "
                                    + taken
                                    + " on 127.0.0.1 is taken (another server?): stop what has"
                                    + " it, or set tls.h2Port to a free port (-Ddw.tls.h2Port="
                                    + "<port>, or 0 to let the system pick one)");
        }
    }

    private Process start(ProcessBuilder builder) throws IOException {
        Process process = builder.start();
        started.add(process);
        return process;
    }

    /** A server process, the port it was given and the file its output goes to. */
    private record Started(Process process, int port, Path output) {
        String said() throws IOException {
            return Files.exists(output) ? Files.readString(output) : "";
        }
    }

    /**
     * A server started on free ports and answering. Between the look for free ports and the
     * server's bind another process may take one (the system hands out ports from the same range to
     * outgoing connections): a start that ended on a taken port is tried again on other ports, up
     * to three times; any other end fails the test with what the server said.
     */
    private Started startReady(String... more) throws Exception {
        for (int attempt = 1; ; attempt++) {
            int port = freePorts();
            Path output = Path.of("target", "process-server-" + port + ".log");
            Process process =
                    start(
                            command(port, more)
                                    .redirectErrorStream(true)
                                    .redirectOutput(output.toFile()));
            Started server = new Started(process, port, output);
            if (awaitReady(server) || attempt == 3) {
                return server;
            }
        }
    }

    /**
     * The server on {@code port} and the next (admin), its TLS ports unset: they follow. On the C1
     * compiler only: these servers are started and stopped, never made hot, and two start at once.
     */
    private static ProcessBuilder command(int port, String... more) {
        List<String> command =
                new ArrayList<>(
                        List.of(
                                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                                "-XX:TieredStopAtLevel=1",
                                "-Ddw.dataset.size=100",
                                "-Ddw.dataset.directory=target/process-data-" + port,
                                "-Ddw.server.applicationConnectors[0].port=" + port,
                                "-Ddw.server.adminConnectors[0].port=" + (port + 1),
                                "-Ddw.server.requestLog.appenders[0].threshold=OFF",
                                "-Ddw.tls.keyStore=" + TLS.resolve("localhost.p12"),
                                "-Ddw.tls.quicheDirectory=" + QUICHE,
                                "-Ddw.logging.level=WARN"));
        command.addAll(List.of(more));
        command.addAll(
                List.of(
                        "-cp",
                        System.getProperty("java.class.path"),
                        LabApplication.class.getName(),
                        "server"));
        return new ProcessBuilder(command);
    }

    private JsonNode info(int port) throws Exception {
        return JSON.readTree(
                http.send(
                                HttpRequest.newBuilder(
                                                URI.create(
                                                        "http://127.0.0.1:" + port + "/api/info"))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString())
                        .body());
    }

    private static Map<String, Integer> ports(JsonNode info) {
        Map<String, Integer> ports = new HashMap<>();
        info.get("protocols")
                .forEach(p -> ports.put(p.get("name").asText(), p.get("port").asInt()));
        return ports;
    }

    /**
     * Whether the server answers (true) or ended on a port another process took meanwhile (false);
     * fails the test, with what the server said, if it ended otherwise or is not ready in 90 s.
     */
    private boolean awaitReady(Started server) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (true) {
            if (!server.process().isAlive()) {
                String said = server.said();
                if (said.contains(" is taken (another server?)")) {
                    return false;
                }
                fail(
                        "the server process ended (exit %d); it said:%n%s",
                        server.process().exitValue(), said);
            }
            assertThat(System.nanoTime())
                    .as("ready within 90 s; it said:%n%s", server.said())
                    .isLessThan(deadline);
            try {
                if (info(server.port()).path("protocols").size() > 0) {
                    return true;
                }
            } catch (IOException notListeningYet) {
                // starting
            }
            Thread.sleep(100);
        }
    }

    /**
     * A port from 20000 to 40000 that is free, with the next one (admin) and the three its TLS
     * connectors follow it to (TCP, and UDP for h3), none of them given to a server of this test
     * before (that server may not have bound them yet).
     */
    private int freePorts() {
        while (true) {
            int port = ThreadLocalRandom.current().nextInt(20_000, 40_000);
            List<Integer> five =
                    List.of(
                            port,
                            port + 1,
                            port + TlsSettings.HTTP11_PORT_OFFSET,
                            port + TlsSettings.H2_PORT_OFFSET,
                            port + TlsSettings.H3_PORT_OFFSET);
            if (five.stream().noneMatch(given::contains)
                    && tcpFree(port)
                    && tcpFree(port + 1)
                    && tcpFree(port + TlsSettings.HTTP11_PORT_OFFSET)
                    && tcpFree(port + TlsSettings.H2_PORT_OFFSET)
                    && udpFree(port + TlsSettings.H3_PORT_OFFSET)) {
                given.addAll(five);
                return port;
            }
        }
    }

    private static boolean tcpFree(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress("127.0.0.1", port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static boolean udpFree(int port) {
        try (DatagramSocket socket = new DatagramSocket(new InetSocketAddress("127.0.0.1", port))) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
