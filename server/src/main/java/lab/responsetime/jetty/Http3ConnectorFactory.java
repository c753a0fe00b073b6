package lab.responsetime.jetty;

import com.codahale.metrics.MetricRegistry;
import io.dropwizard.jetty.HttpsConnectorFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.eclipse.jetty.http3.server.HTTP3ServerConnectionFactory;
import org.eclipse.jetty.http3.server.HTTP3ServerQuicConfiguration;
import org.eclipse.jetty.quic.quiche.server.QuicheServerConnector;
import org.eclipse.jetty.quic.quiche.server.QuicheServerQuicConfiguration;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.component.LifeCycle;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.ThreadPool;

/**
 * HTTP/3 over QUIC on a UDP port: Jetty's QUIC connector on quiche ({@link QuicheLibrary}) with
 * Jetty's HTTP/3, taking its port, interface, key store and HTTP settings as Dropwizard's HTTPS
 * connector does. quiche reads the key and certificate from PEM files, which Jetty writes from the
 * key store into a work folder beside the key store, readable by this user only, removed when the
 * connector stops.
 */
public final class Http3ConnectorFactory extends HttpsConnectorFactory {

    @Override
    public Connector build(
            Server server, MetricRegistry metrics, String name, ThreadPool threadPool) {
        SslContextFactory.Server tls = configureSslContextFactory(new SslContextFactory.Server());
        Path pemDirectory;
        try {
            // Beside the key store, which holds the same key: a folder a killed server leaves
            // behind discloses nothing the key store's folder does not.
            Path keyStoreFolder = Path.of(getKeyStorePath()).toAbsolutePath().getParent();
            pemDirectory = Files.createTempDirectory(keyStoreFolder, "quic-pem-");
        } catch (IOException e) {
            throw new UncheckedIOException("no work folder for QUIC's PEM files", e);
        }
        QuicheServerQuicConfiguration quic =
                HTTP3ServerQuicConfiguration.configure(
                        new QuicheServerQuicConfiguration(pemDirectory));
        HttpConfiguration http = buildHttpConfiguration();
        // Dropwizard's HTTPS settings add Jetty's SecureRequestCustomizer, which reads TLS's
        // session from the request's connection; a QUIC connection has none, and the customizer's
        // attributes then throw (listing a request's attributes fails, as the request log does).
        http.getCustomizers().removeIf(SecureRequestCustomizer.class::isInstance);
        QuicheServerConnector connector =
                new QuicheServerConnector(
                        server, tls, quic, new HTTP3ServerConnectionFactory(http));
        connector.setName(name);
        connector.setHost(getBindHost());
        connector.setPort(getPort());
        connector.addEventListener(
                new LifeCycle.Listener() {
                    @Override
                    public void lifeCycleStopped(LifeCycle event) {
                        deleteTree(pemDirectory);
                    }
                });
        return connector;
    }

    private static void deleteTree(Path directory) {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not remove QUIC's PEM folder " + directory, e);
        }
    }
}
