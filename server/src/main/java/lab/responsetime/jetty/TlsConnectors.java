package lab.responsetime.jetty;

import io.dropwizard.core.server.DefaultServerFactory;
import io.dropwizard.jetty.ConnectorFactory;
import io.dropwizard.jetty.HttpConnectorFactory;
import io.dropwizard.jetty.HttpsConnectorFactory;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import lab.responsetime.LabConfiguration.TlsSettings;

/**
 * Adds the TLS connectors to the application's (docs/protocols.md): HTTP/1.1 over TLS, HTTP/2 over
 * TLS (ALPN offers h2, then http/1.1), and HTTP/3 over QUIC when its native library is there, all
 * on the first connector's interface and with the key store that the set-up makes; the HTTP/2 one
 * with the configured limit of Jetty's flood protection. Dropwizard builds the server from its
 * factory after the application's {@code run}, so connectors added there are served.
 */
public final class TlsConnectors {
    /** Both connectors' TLS versions: the same handshake, so that only HTTP/2 tells them apart. */
    static final List<String> TLS_VERSIONS = List.of("TLSv1.3", "TLSv1.2");

    /**
     * Both connectors' cipher suites: TLS 1.3's, and for TLS 1.2 the ECDSA suite the set-up's key
     * (EC P-256) needs, and the RSA one that Dropwizard's HTTP/2 connector insists on listing.
     */
    static final List<String> CIPHER_SUITES =
            List.of(
                    "TLS_AES_128_GCM_SHA256",
                    "TLS_AES_256_GCM_SHA384",
                    "TLS_CHACHA20_POLY1305_SHA256",
                    "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
                    "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256");

    private TlsConnectors() {}

    /**
     * Adds the connectors to {@code server}, and returns null; or, when the key store is missing,
     * adds none and returns why (the server then speaks cleartext HTTP/1.1 only); or, when the QUIC
     * library cannot serve, adds the TCP ones and returns why there is no h3.
     */
    public static String addTo(DefaultServerFactory server, TlsSettings tls) {
        if (!Files.isRegularFile(tls.keyStorePath())) {
            return "no TLS connectors: the key store "
                    + tls.keyStorePath().toAbsolutePath()
                    + " is missing (scripts/tls-key.sh makes it)";
        }
        String bindHost = null;
        if (!server.getApplicationConnectors().isEmpty()
                && server.getApplicationConnectors().get(0) instanceof HttpConnectorFactory first) {
            bindHost = first.getBindHost();
        }
        List<ConnectorFactory> connectors = new ArrayList<>(server.getApplicationConnectors());
        connectors.add(configure(new HttpsConnectorFactory(), tls, tls.getHttp11Port(), bindHost));
        connectors.add(
                configure(
                        new RateControlledHttp2ConnectorFactory(
                                tls.getH2MaxRateControlledEventsPerSecond()),
                        tls,
                        tls.getH2Port(),
                        bindHost));
        String noQuic = QuicheLibrary.use(tls.quicheDirectoryPath());
        if (noQuic == null) {
            connectors.add(configure(new Http3ConnectorFactory(), tls, tls.getH3Port(), bindHost));
        }
        server.setApplicationConnectors(connectors);
        return noQuic == null ? null : "no h3 connector: " + noQuic;
    }

    private static HttpsConnectorFactory configure(
            HttpsConnectorFactory connector, TlsSettings tls, int port, String bindHost) {
        connector.setPort(port);
        connector.setBindHost(bindHost);
        connector.setKeyStorePath(tls.keyStorePath().toString());
        connector.setKeyStorePassword(tls.getKeyStorePassword());
        connector.setKeyStoreType("PKCS12");
        connector.setSupportedProtocols(TLS_VERSIONS);
        connector.setSupportedCipherSuites(CIPHER_SUITES);
        // A certificate the set-up made for localhost: nothing to validate it against.
        connector.setValidateCerts(false);
        connector.setValidatePeers(false);
        return connector;
    }
}
