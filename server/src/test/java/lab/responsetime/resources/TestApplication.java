package lab.responsetime.resources;

import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import lab.responsetime.LabApplication;
import lab.responsetime.LabConfiguration;

/**
 * The real application as the integration tests boot it, and the client they talk to it with: the
 * study server and its admin endpoints on ports the system picks, the page from {@code ../client},
 * a dataset of the test's size in a directory of its own (tests run side by side must not share
 * one), and whatever settings the test adds.
 */
public final class TestApplication {
    private TestApplication() {}

    /**
     * Makes the TLS key store and certificate the set-up makes ({@code scripts/tls-key.sh}) in
     * {@code directory}, for a test that serves over TLS.
     */
    public static void makeTlsKey(Path directory) {
        try {
            Process process =
                    new ProcessBuilder(
                                    "bash",
                                    "../scripts/tls-key.sh",
                                    directory.toAbsolutePath().toString())
                            .inheritIO()
                            .start();
            if (process.waitFor() != 0) {
                throw new IllegalStateException("scripts/tls-key.sh failed");
            }
        } catch (Exception e) {
            throw new IllegalStateException("could not make the TLS key", e);
        }
    }

    /**
     * A TLS context that trusts the certificate in the PEM file {@code certificate}, and no other.
     */
    public static SSLContext trustingOnly(Path certificate) throws Exception {
        KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
        trusted.load(null, null);
        try (InputStream pem = Files.newInputStream(certificate)) {
            trusted.setCertificateEntry(
                    "localhost", CertificateFactory.getInstance("X.509").generateCertificate(pem));
        }
        TrustManagerFactory trust =
                TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(trusted);
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(null, trust.getTrustManagers(), null);
        return tls;
    }

    /**
     * The application with {@code datasetSize} objects per kind in {@code dataDirectory}, and
     * {@code settings} on top.
     */
    static DropwizardAppExtension<LabConfiguration> boot(
            int datasetSize, String dataDirectory, ConfigOverride... settings) {
        List<ConfigOverride> overrides =
                new ArrayList<>(
                        List.of(
                                ConfigOverride.config("server.applicationConnectors[0].port", "0"),
                                ConfigOverride.config("server.adminConnectors[0].port", "0"),
                                ConfigOverride.config("dataset.size", String.valueOf(datasetSize)),
                                ConfigOverride.config("dataset.directory", dataDirectory),
                                ConfigOverride.config("client.directory", "../client")));
        overrides.addAll(Arrays.asList(settings));
        return new DropwizardAppExtension<>(
                LabApplication.class, (String) null, overrides.toArray(ConfigOverride[]::new));
    }

    /**
     * An HTTP/1.1 client that gives up connecting after 5 s; it neither asks for nor undoes
     * compression on its own.
     */
    static HttpClient http11() {
        return HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .build();
    }

    /**
     * Waits until {@code app} answers a Book and a Video (it loads or generates its datasets after
     * it starts), at most {@code within}.
     */
    static void awaitDatasets(
            DropwizardAppExtension<LabConfiguration> app, HttpClient http, Duration within)
            throws Exception {
        long deadline = System.nanoTime() + within.toNanos();
        while (status(app, http, "books") != 200 || status(app, http, "videos") != 200) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the datasets were not loaded within " + within);
            }
            Thread.sleep(20);
        }
    }

    private static int status(
            DropwizardAppExtension<LabConfiguration> app, HttpClient http, String kind)
            throws Exception {
        URI uri =
                URI.create("http://localhost:" + app.getLocalPort() + "/api/" + kind + "?count=1");
        return http.send(
                        HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).build(),
                        HttpResponse.BodyHandlers.discarding())
                .statusCode();
    }
}
