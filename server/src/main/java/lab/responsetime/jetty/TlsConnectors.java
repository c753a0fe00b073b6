package lab.responsetime.jetty;

import static lab.responsetime.LabConfiguration.TlsSettings.H2_PORT_OFFSET;
import static lab.responsetime.LabConfiguration.TlsSettings.H3_PORT_OFFSET;
import static lab.responsetime.LabConfiguration.TlsSettings.HTTP11_PORT_OFFSET;

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
 * with the configured limit of Jetty's flood protection. Their ports are the settings' or, unset,
 * follow the first connector's (8080 gives 8443, 8444 and 8445). Dropwizard builds the server from
 * its factory after the application's {@code run}, so connectors added there are served.
 */
public final class TlsConnectors {
    private static final int MAX_PORT = 65535;

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

    /** The settings of the TLS connectors' ports, as a person changes them. */
    static final String HTTP11_PORT = "tls.http11Port";

    static final String H2_PORT = "tls.h2Port";
    static final String H3_PORT = "tls.h3Port";

    private TlsConnectors() {}

    /**
     * A TLS connector's port: its setting, or, unset, the cleartext port plus the connector's
     * offset (0 stays 0: the system picks both). Past 65535 the start stops, naming the setting.
     */
    static int port(String setting, Integer configured, int cleartextPort, int offset) {
        if (configured != null) {
            return configured;
        }
        if (cleartextPort == 0) {
            return 0;
        }
        int following = cleartextPort + offset;
        if (following > MAX_PORT) {
            throw new PortUnavailableException(
                    setting
                            + " follows the cleartext port "
                            + cleartextPort
                            + " to "
                            + following
                            + ", past "
                            + MAX_PORT
                            + ": set "
                            + setting
                            + " (-Ddw."
                            + setting
                            + "=<port>, or 0 to let the system pick one)");
        }
        return following;
    }

    /** The setting that names a connector's port, for a message that says what to change. */
    static String settingOf(ConnectorFactory connector, String otherwise) {
        if (connector instanceof Http3ConnectorFactory) {
            return H3_PORT;
        }
        if (connector instanceof RateControlledHttp2ConnectorFactory) {
            return H2_PORT;
        }
        if (connector instanceof HttpsConnectorFactory) {
            return HTTP11_PORT;
        }
        return otherwise;
    }

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
        int cleartextPort = 0;
        if (!server.getApplicationConnectors().isEmpty()
                && server.getApplicationConnectors().get(0) instanceof HttpConnectorFactory first) {
            bindHost = first.getBindHost();
            cleartextPort = first.getPort();
        }
        List<ConnectorFactory> connectors = new ArrayList<>(server.getApplicationConnectors());
        connectors.add(
                configure(
                        new HttpsConnectorFactory(),
                        tls,
                        port(HTTP11_PORT, tls.getHttp11Port(), cleartextPort, HTTP11_PORT_OFFSET),
                        bindHost));
        connectors.add(
                configure(
                        new RateControlledHttp2ConnectorFactory(
                                tls.getH2MaxRateControlledEventsPerSecond()),
                        tls,
                        port(H2_PORT, tls.getH2Port(), cleartextPort, H2_PORT_OFFSET),
                        bindHost));
        String noQuic = QuicheLibrary.use(tls.quicheDirectoryPath());
        if (noQuic == null) {
            connectors.add(
                    configure(
                            new Http3ConnectorFactory(),
                            tls,
                            port(H3_PORT, tls.getH3Port(), cleartextPort, H3_PORT_OFFSET),
                            bindHost));
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
