package lab.responsetime.resources;

import static lab.responsetime.testing.H2Frames.PREFACE;
import static lab.responsetime.testing.H2Frames.frame;
import static lab.responsetime.testing.H2Frames.get;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.http3.client.HTTP3Client;
import org.eclipse.jetty.http3.client.HTTP3ClientQuicConfiguration;
import org.eclipse.jetty.http3.client.transport.HttpClientTransportOverHTTP3;
import org.eclipse.jetty.io.ClientConnector;
import org.eclipse.jetty.quic.quiche.client.QuicheClientQuicConfiguration;
import org.eclipse.jetty.quic.quiche.client.QuicheTransport;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * Clients that send one GET over one of the lab's protocols (docs/protocols.md), read nothing, and
 * then leave — as a client that closes its connection does, or abruptly — for the tests that check
 * that the server stops work nobody waits for, over every protocol.
 */
final class LeavingClients {
    /** The lab's protocols, by their names in {@code /api/info}. */
    static final List<String> PROTOCOLS = List.of("http1.1", "http1.1-tls", "h2", "h3");

    private LeavingClients() {}

    /** A client whose request is on its way, and that can leave in one of two ways. */
    interface Leaving {
        /**
         * Leaves as a client that closes its connection: FIN over TCP, after TLS's close_notify
         * where there is TLS; over HTTP/3 the QUIC connection's CONNECTION_CLOSE.
         */
        void close() throws Exception;

        /**
         * Leaves abruptly: over HTTP/1.1 a TCP reset (RST, as a killed process's connection may
         * end); over HTTP/2 and HTTP/3 a reset of the request's stream, the connection staying open
         * (what a browser sends for an aborted fetch).
         */
        void reset() throws Exception;

        /** Ends whatever is left of the client. */
        void release() throws Exception;
    }

    /** Cleartext HTTP/1.1: the request on a socket of its own. */
    static Leaving http11(int port, String pathAndQuery) throws IOException {
        Socket socket = new Socket("127.0.0.1", port);
        write(socket.getOutputStream(), request(pathAndQuery));
        return sockets(socket, socket);
    }

    /** HTTP/1.1 over TLS, trusting {@code tls}'s certificate. */
    static Leaving http11Tls(SSLContext tls, int port, String pathAndQuery) throws IOException {
        Socket raw = new Socket("127.0.0.1", port);
        SSLSocket socket = handshake(tls, raw, port);
        write(socket.getOutputStream(), request(pathAndQuery));
        return sockets(socket, raw);
    }

    /** TLS over {@code raw} to localhost, offering {@code protocols} by ALPN if any. */
    private static SSLSocket handshake(SSLContext tls, Socket raw, int port, String... protocols)
            throws IOException {
        SSLSocket socket =
                (SSLSocket) tls.getSocketFactory().createSocket(raw, "localhost", port, true);
        if (protocols.length > 0) {
            SSLParameters parameters = socket.getSSLParameters();
            parameters.setApplicationProtocols(protocols);
            socket.setSSLParameters(parameters);
        }
        socket.startHandshake();
        return socket;
    }

    /**
     * HTTP/2 over TLS, framed by hand (RFC 9113) so that the test decides what is sent: the
     * preface, SETTINGS and the GET on stream 1; a reset is RST_STREAM (CANCEL) on that stream.
     */
    static Leaving h2(SSLContext tls, int port, String pathAndQuery) throws IOException {
        Socket raw = new Socket("127.0.0.1", port);
        SSLSocket socket = handshake(tls, raw, port, "h2");
        if (!"h2".equals(socket.getApplicationProtocol())) {
            throw new IOException("the server did not negotiate h2");
        }
        ByteArrayOutputStream opening = new ByteArrayOutputStream();
        opening.write(PREFACE);
        opening.write(frame(H2_SETTINGS, 0, 0, new byte[0]));
        opening.write(frame(H2_HEADERS, H2_END_HEADERS | H2_END_STREAM, 1, get(pathAndQuery)));
        write(socket.getOutputStream(), opening.toByteArray());
        return new Leaving() {
            @Override
            public void close() throws IOException {
                socket.close();
            }

            @Override
            public void reset() throws IOException {
                byte[] cancel = ByteBuffer.allocate(4).putInt(H2_CANCEL).array();
                write(socket.getOutputStream(), frame(H2_RST_STREAM, 0, 1, cancel));
            }

            @Override
            public void release() throws IOException {
                socket.close();
            }
        };
    }

    /**
     * HTTP/3 with Jetty's client over QUIC (quiche), which does not check the certificate (as in
     * Http3IntegrationTest: quiche builds no chain from the set-up's self-signed one). A reset is
     * the request's abort, which resets its stream; closing stops the client, which closes its QUIC
     * connection.
     */
    static Leaving h3(int port, String pathAndQuery, Path pemDirectory) throws Exception {
        ClientConnector connector = new ClientConnector();
        connector.setSslContextFactory(new SslContextFactory.Client(true));
        QuicheClientQuicConfiguration quic =
                HTTP3ClientQuicConfiguration.configure(
                        new QuicheClientQuicConfiguration(Files.createDirectories(pemDirectory)));
        HttpClient client =
                new HttpClient(
                        new HttpClientTransportOverHTTP3(
                                new HTTP3Client(quic, connector), new QuicheTransport(quic)));
        client.start();
        Request request =
                client.newRequest("https://localhost:" + port + pathAndQuery)
                        .timeout(120, TimeUnit.SECONDS);
        request.send(result -> {});
        return new Leaving() {
            @Override
            public void close() throws Exception {
                client.stop();
            }

            @Override
            public void reset() {
                request.abort(new IOException("the test's client leaves"));
            }

            @Override
            public void release() throws Exception {
                client.stop();
            }
        };
    }

    /**
     * Over TCP: {@code socket} is what the client speaks through, {@code raw} its TCP socket (the
     * same without TLS). Closing closes the first (TLS's close_notify, then FIN); a reset closes
     * the TCP socket with SO_LINGER 0 (RST), never saying goodbye in TLS.
     */
    private static Leaving sockets(Socket socket, Socket raw) {
        return new Leaving() {
            @Override
            public void close() throws IOException {
                socket.close();
            }

            @Override
            public void reset() throws IOException {
                raw.setSoLinger(true, 0);
                raw.close();
            }

            @Override
            public void release() throws IOException {
                socket.close();
            }
        };
    }

    private static byte[] request(String pathAndQuery) {
        return ("GET " + pathAndQuery + " HTTP/1.1\r\nHost: localhost\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII);
    }

    private static void write(OutputStream out, byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    /** HTTP/2's frame types, flags and the CANCEL error code (RFC 9113 §6, §7). */
    private static final int H2_HEADERS = 0x1;

    private static final int H2_RST_STREAM = 0x3;
    private static final int H2_SETTINGS = 0x4;
    private static final int H2_END_STREAM = 0x1;
    private static final int H2_END_HEADERS = 0x4;
    private static final int H2_CANCEL = 0x8;
}
