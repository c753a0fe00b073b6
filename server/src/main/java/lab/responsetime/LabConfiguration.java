package lab.responsetime;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.dropwizard.core.Configuration;
import io.dropwizard.core.server.DefaultServerFactory;
import io.dropwizard.core.server.ServerFactory;
import io.dropwizard.jetty.ConnectorFactory;
import io.dropwizard.jetty.GzipHandlerFactory;
import io.dropwizard.jetty.HttpConnectorFactory;
import io.dropwizard.util.Duration;
import jakarta.validation.Valid;
import jakarta.validation.constraints.AssertFalse;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import lab.responsetime.core.ingest.IngestLimits;
import lab.responsetime.jetty.RateControlledHttp2ConnectorFactory;

/**
 * The server's settings. Every one has an embedded default, so the server runs without a
 * configuration file; any can be changed in a YAML file or with {@code -Ddw.<path>=value} (for
 * example {@code -Ddw.dataset.size=10000}).
 */
public class LabConfiguration extends Configuration {
    /** Default port of the study API and client page. */
    public static final int DEFAULT_PORT = 8080;

    /** Default port of the admin endpoints (health check, metrics). */
    public static final int DEFAULT_ADMIN_PORT = 8081;

    /** Default interface: only this machine can reach the server unless configured otherwise. */
    public static final String DEFAULT_BIND_HOST = "127.0.0.1";

    /** server.shutdownGracePeriod: a server stops within a few seconds of SIGTERM. */
    public static final Duration DEFAULT_SHUTDOWN_GRACE = Duration.seconds(2);

    @Valid @NotNull private DatasetSettings dataset = new DatasetSettings();

    @Valid @NotNull private ComputationSettings computation = new ComputationSettings();

    @Valid @NotNull private ResponseSettings response = new ResponseSettings();

    @Valid @NotNull private ClientSettings client = new ClientSettings();

    @Valid @NotNull private IngestSettings ingest = new IngestSettings();

    @Valid @NotNull private TlsSettings tls = new TlsSettings();

    /**
     * The process whose end stops the server (docs/configuration.md): a study run passes its own
     * process id, so that a run killed in any way never leaves its server running. None by default.
     */
    @JsonProperty @Positive private Long exitWith;

    public LabConfiguration() {
        DefaultServerFactory server = new DefaultServerFactory();
        server.setApplicationConnectors(List.of(connector(DEFAULT_PORT)));
        server.setAdminConnectors(List.of(connector(DEFAULT_ADMIN_PORT)));
        // Compression is the client's explicit choice (?compression=br), never Accept-Encoding's.
        GzipHandlerFactory gzip = new GzipHandlerFactory();
        gzip.setEnabled(false);
        server.setGzipFilterFactory(gzip);
        // Let every method reach the application, which answers all but GET and HEAD (and POST to
        // the
        // collector, /api/books and /api/videos) with a JSON 405.
        server.setAllowedMethods(
                Set.of("GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH", "TRACE"));
        // How long a stopping server lets answers in progress finish (Dropwizard's default is
        // 30 s). A client that vanished over HTTP/3 (a killed browser) never acknowledges the rest
        // of its answer nor closes its QUIC session, and Jetty would wait for it to the end of the
        // period; over TCP the kernel ends such a connection at once. Computations stop as the
        // server does (StopComputationsOnShutdown), so little else needs the time.
        server.setShutdownGracePeriod(DEFAULT_SHUTDOWN_GRACE);
        setServerFactory(server);
    }

    private static ConnectorFactory connector(int port) {
        HttpConnectorFactory connector = new HttpConnectorFactory();
        connector.setPort(port);
        connector.setBindHost(DEFAULT_BIND_HOST);
        return connector;
    }

    /** Jetty's own gzip would compress whenever the browser accepts it; the lab must not. */
    @JsonIgnore
    @AssertFalse(
            message =
                    "server.gzip.enabled must be false: compression is chosen per request "
                            + "with ?compression=<name> and must be honoured exactly")
    public boolean isJettyGzipEnabled() {
        ServerFactory factory = getServerFactory();
        return factory instanceof io.dropwizard.core.server.AbstractServerFactory server
                && server.getGzipFilterFactory().isEnabled();
    }

    @JsonProperty
    public DatasetSettings getDataset() {
        return dataset;
    }

    @JsonProperty
    public void setDataset(DatasetSettings dataset) {
        this.dataset = dataset;
    }

    @JsonProperty
    public ComputationSettings getComputation() {
        return computation;
    }

    @JsonProperty
    public void setComputation(ComputationSettings computation) {
        this.computation = computation;
    }

    @JsonProperty
    public ResponseSettings getResponse() {
        return response;
    }

    @JsonProperty
    public void setResponse(ResponseSettings response) {
        this.response = response;
    }

    @JsonProperty
    public ClientSettings getClient() {
        return client;
    }

    @JsonProperty
    public void setClient(ClientSettings client) {
        this.client = client;
    }

    @JsonProperty
    public IngestSettings getIngest() {
        return ingest;
    }

    @JsonProperty
    public void setIngest(IngestSettings ingest) {
        this.ingest = ingest;
    }

    @JsonProperty
    public Long getExitWith() {
        return exitWith;
    }

    @JsonProperty
    public void setExitWith(Long exitWith) {
        this.exitWith = exitWith;
    }

    @JsonProperty
    public TlsSettings getTls() {
        return tls;
    }

    @JsonProperty
    public void setTls(TlsSettings tls) {
        this.tls = tls;
    }

    /**
     * The TLS connectors beside the cleartext one (docs/protocols.md): HTTP/1.1 over TLS on one
     * port, HTTP/2 (ALPN h2) on another, HTTP/3 on a UDP port, all with the key and certificate
     * that the set-up makes ({@code scripts/tls-key.sh}, never committed). They are added when the
     * key store is there.
     */
    public static class TlsSettings {
        /** From the cleartext port to HTTP/1.1 over TLS's when that is not set: 8080 → 8443. */
        public static final int HTTP11_PORT_OFFSET = 363;

        /** From the cleartext port to HTTP/2's when that is not set: 8080 → 8444. */
        public static final int H2_PORT_OFFSET = 364;

        /** From the cleartext port to HTTP/3's (UDP) when that is not set: 8080 → 8445. */
        public static final int H3_PORT_OFFSET = 365;

        /** The PKCS #12 key store; relative paths resolve against the working directory. */
        @JsonProperty @NotNull private String keyStore = "tls/localhost.p12";

        /**
         * The key store's password: the set-up's own, for a key made on this machine for localhost.
         */
        @JsonProperty @NotNull private String keyStorePassword = "response-time-lab";

        /**
         * HTTP/1.1 over TLS; 0 picks a free port. Unset, it follows the cleartext port: that port
         * plus {@link #HTTP11_PORT_OFFSET} (8080 gives 8443), so that a second server started with
         * only its cleartext port changed does not want the first one's TLS ports.
         */
        @JsonProperty
        @Min(0)
        @Max(65535)
        private Integer http11Port;

        /**
         * HTTP/2 over TLS (and HTTP/1.1 for a client without ALPN h2); 0 picks a free port. Unset,
         * the cleartext port plus {@link #H2_PORT_OFFSET} (8444).
         */
        @JsonProperty
        @Min(0)
        @Max(65535)
        private Integer h2Port;

        /**
         * HTTP/3 over QUIC, a UDP port; 0 picks a free port. Unset, the cleartext port plus {@link
         * #H3_PORT_OFFSET} (8445).
         */
        @JsonProperty
        @Min(0)
        @Max(65535)
        private Integer h3Port;

        /**
         * The folder of the native QUIC library the h3 connector runs on ({@code libquiche.so}, of
         * the version Jetty's binding needs; {@code scripts/quiche.sh} builds it); relative paths
         * resolve against the working directory. Without it the server serves no h3.
         */
        @JsonProperty @NotNull private String quicheDirectory = "tools/quiche";

        /**
         * The limit of Jetty's HTTP/2 flood protection (docs/protocols.md#flood-protection): the
         * frames it rate-controls that one connection may send in any second; one more ends the
         * connection with GOAWAY ENHANCE_YOUR_CALM. Jetty's own 128 by default; the load testbed
         * raises it, since a load generator's HTTP/2 client at a high rate sends more of them
         * (WINDOW_UPDATE frames for streams the server has already closed) than that.
         */
        @JsonProperty
        @Min(
                value = 1,
                message =
                        "must be at least 1 (frames a second per connection before Jetty's"
                                + " flood protection closes it; Jetty's default is 128)")
        private int h2MaxRateControlledEventsPerSecond =
                RateControlledHttp2ConnectorFactory.JETTY_DEFAULT_EVENTS_PER_SECOND;

        public String getKeyStore() {
            return keyStore;
        }

        public void setKeyStore(String keyStore) {
            this.keyStore = keyStore;
        }

        /** {@link #getKeyStore()} as a path (not a bean property). */
        public Path keyStorePath() {
            return Path.of(keyStore);
        }

        public String getKeyStorePassword() {
            return keyStorePassword;
        }

        public void setKeyStorePassword(String keyStorePassword) {
            this.keyStorePassword = keyStorePassword;
        }

        public Integer getHttp11Port() {
            return http11Port;
        }

        public void setHttp11Port(Integer http11Port) {
            this.http11Port = http11Port;
        }

        public Integer getH2Port() {
            return h2Port;
        }

        public void setH2Port(Integer h2Port) {
            this.h2Port = h2Port;
        }

        public Integer getH3Port() {
            return h3Port;
        }

        public void setH3Port(Integer h3Port) {
            this.h3Port = h3Port;
        }

        public String getQuicheDirectory() {
            return quicheDirectory;
        }

        public void setQuicheDirectory(String quicheDirectory) {
            this.quicheDirectory = quicheDirectory;
        }

        /** {@link #getQuicheDirectory()} as a path (not a bean property). */
        public Path quicheDirectoryPath() {
            return Path.of(quicheDirectory);
        }

        public int getH2MaxRateControlledEventsPerSecond() {
            return h2MaxRateControlledEventsPerSecond;
        }

        public void setH2MaxRateControlledEventsPerSecond(int h2MaxRateControlledEventsPerSecond) {
            this.h2MaxRateControlledEventsPerSecond = h2MaxRateControlledEventsPerSecond;
        }
    }

    /** docs/method.md#datasets: what is generated and where it is kept. */
    public static class DatasetSettings {
        /** The study's default seed; part of every result. */
        public static final long DEFAULT_SEED = 20170601L;

        public static final int DEFAULT_SIZE = 1_000_000;

        /** 128 MiB: room for 100,000 objects of about 20 fields. */
        public static final long DEFAULT_MAX_UPLOAD_BYTES = 128L << 20;

        @JsonProperty private long seed = DEFAULT_SEED;

        @JsonProperty
        @Min(1)
        @Max(10_000_000)
        private int size = DEFAULT_SIZE;

        /** The largest dataset a user may bring (docs/datasets.md), in bytes of JSON. */
        @JsonProperty @Positive private long maxUploadBytes = DEFAULT_MAX_UPLOAD_BYTES;

        /** Where the data files are kept; relative paths resolve against the working directory. */
        @JsonProperty @NotNull private String directory = "data";

        /**
         * Datasets brought at start-up (docs/configuration.md#datasets-at-start-up): a JSON or JSON
         * Lines file by the name it is served under.
         */
        @JsonProperty @NotNull private Map<String, String> bring = new LinkedHashMap<>();

        public long getSeed() {
            return seed;
        }

        public void setSeed(long seed) {
            this.seed = seed;
        }

        public int getSize() {
            return size;
        }

        public void setSize(int size) {
            this.size = size;
        }

        public long getMaxUploadBytes() {
            return maxUploadBytes;
        }

        public void setMaxUploadBytes(long maxUploadBytes) {
            this.maxUploadBytes = maxUploadBytes;
        }

        public String getDirectory() {
            return directory;
        }

        /**
         * {@link #getDirectory()} as a path (not a bean property: Dropwizard round-trips defaults
         * through JSON).
         */
        public Path directoryPath() {
            return Path.of(directory);
        }

        public void setDirectory(String directory) {
            this.directory = directory;
        }

        public Map<String, String> getBring() {
            return bring;
        }

        public void setBring(Map<String, String> bring) {
            this.bring = bring;
        }

        /**
         * {@link #getBring()} with the files as paths (not a bean property: Dropwizard round-trips
         * defaults through JSON).
         */
        public Map<String, Path> bringPaths() {
            Map<String, Path> paths = new LinkedHashMap<>();
            bring.forEach((name, file) -> paths.put(name, Path.of(file)));
            return paths;
        }
    }

    /**
     * docs/method.md, computation models: how much sorting the server accepts and how much it runs
     * at once. Heavy compressions (brotli 10–11, zstd 16–19) share the same slots and queue.
     */
    public static class ComputationSettings {
        /**
         * Largest accepted estimate of sorting work, in sorts × N·log2(N). The default admits the
         * source study's largest cell (CM5 on 10,000 Books, about 9.3e8) and CM4 on 100,000 objects
         * (about 1.3e9), and refuses CM5 on 100,000 (about 1.2e10).
         */
        @JsonProperty @Positive private double maxSortWork = 2.0e9;

        /**
         * Sorting requests (and heavy compressions) run at once; the others wait or are refused.
         */
        @JsonProperty
        @Min(1)
        private int maxConcurrent = Math.max(1, Runtime.getRuntime().availableProcessors() - 1);

        /**
         * Sorting requests (and heavy compressions) that may wait for a free slot; one more is
         * refused with 503.
         */
        @JsonProperty
        @Min(0)
        private int maxQueued = 2;

        /** How long a waiting request waits for a slot before it is refused with 503. */
        @JsonProperty @NotNull private Duration maxQueueWait = Duration.seconds(30);

        public double getMaxSortWork() {
            return maxSortWork;
        }

        public void setMaxSortWork(double maxSortWork) {
            this.maxSortWork = maxSortWork;
        }

        public int getMaxConcurrent() {
            return maxConcurrent;
        }

        public void setMaxConcurrent(int maxConcurrent) {
            this.maxConcurrent = maxConcurrent;
        }

        public int getMaxQueued() {
            return maxQueued;
        }

        public void setMaxQueued(int maxQueued) {
            this.maxQueued = maxQueued;
        }

        public Duration getMaxQueueWait() {
            return maxQueueWait;
        }

        public void setMaxQueueWait(Duration maxQueueWait) {
            this.maxQueueWait = maxQueueWait;
        }
    }

    /** How answers are written (the compression level is each request's: {@code ?level=}). */
    public static class ResponseSettings {
        /**
         * Bytes of a body held back before the headers are sent. A body that fits is sent with
         * Content-Length and whole-body Server-Timing; a larger one streams, chunked.
         */
        @JsonProperty
        @Min(1024)
        private int headBytes = 64 * 1024;

        public int getHeadBytes() {
            return headBytes;
        }

        public void setHeadBytes(int headBytes) {
            this.headBytes = headBytes;
        }
    }

    /** The browser client served at {@code /}. */
    public static class ClientSettings {
        /** The folder of the client page; relative paths resolve against the working directory. */
        @JsonProperty @NotNull private String directory = "client";

        public String getDirectory() {
            return directory;
        }

        /**
         * {@link #getDirectory()} as a path (not a bean property: Dropwizard round-trips defaults
         * through JSON).
         */
        public Path directoryPath() {
            return Path.of(directory);
        }

        public void setDirectory(String directory) {
            this.directory = directory;
        }
    }

    /**
     * The collector, {@code POST /api/books} and {@code POST /api/videos}: how much one posted body
     * may be. A body past a limit is answered 413 as soon as it passes it. Posting a GET answer
     * back needs limits above its size: 10,000 Books are about 4.4 MB as JSON, 100,000 about 44 MB.
     */
    public static class IngestSettings {
        /** The largest accepted limit: a body is decoded in one request's memory and time. */
        static final long MAX_LIMIT_BYTES = 1L << 30;

        /** Bytes on the wire, compressed or not: 16 MiB. */
        @JsonProperty
        @Min(1)
        @Max(MAX_LIMIT_BYTES)
        private long maxBodyBytes = 16L * 1024 * 1024;

        /**
         * Bytes once decompressed (what the format's decoder reads): 64 MiB; decompression stops
         * here.
         */
        @JsonProperty
        @Min(1)
        @Max(MAX_LIMIT_BYTES)
        private long maxDecodedBytes = 64L * 1024 * 1024;

        /** Objects in one list: the default dataset's size, what the largest GET answers. */
        @JsonProperty
        @Min(1)
        private int maxObjects = DatasetSettings.DEFAULT_SIZE;

        public long getMaxBodyBytes() {
            return maxBodyBytes;
        }

        public void setMaxBodyBytes(long maxBodyBytes) {
            this.maxBodyBytes = maxBodyBytes;
        }

        public long getMaxDecodedBytes() {
            return maxDecodedBytes;
        }

        public void setMaxDecodedBytes(long maxDecodedBytes) {
            this.maxDecodedBytes = maxDecodedBytes;
        }

        public int getMaxObjects() {
            return maxObjects;
        }

        public void setMaxObjects(int maxObjects) {
            this.maxObjects = maxObjects;
        }

        /**
         * The limits the collector enforces (not a bean property: Dropwizard round-trips defaults
         * through JSON).
         */
        public IngestLimits limits() {
            return new IngestLimits(maxBodyBytes, maxDecodedBytes, maxObjects);
        }
    }
}
