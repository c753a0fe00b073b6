package lab.responsetime.resources;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import lab.responsetime.LabConfiguration;
import lab.responsetime.core.catalogue.Catalogue;
import lab.responsetime.core.compression.Compression;
import lab.responsetime.core.dataset.Datasets;
import lab.responsetime.core.dataset.ObjectKind;
import lab.responsetime.core.formats.Format;
import lab.responsetime.core.formats.Library;
import lab.responsetime.jetty.ServedProtocols;
import lab.responsetime.lifecycle.ServerProcess;

/**
 * {@code GET /api/info}: what a study run records about the server — library versions, each
 * compression's library, version and levels, the datasets' seed, size and state, the server's
 * settings, the collector's ({@code POST /api/books}) limits and accepted bodies, the protocols its
 * connectors speak (with their ports), the machine, and the process (who started it, from where,
 * and whose end stops it).
 */
@Path("/info")
@Produces(MediaType.APPLICATION_JSON)
public final class InfoResource {
    /**
     * The server's own libraries whose version a run records; each format's come from its codec
     * ({@link lab.responsetime.core.formats.FormatCodec#libraries()}).
     */
    private static final List<Library> PLATFORM =
            List.of(
                    Library.fromPom("dropwizard", "io.dropwizard/dropwizard-core"),
                    Library.fromPom("jersey", "org.glassfish.jersey.core/jersey-server"),
                    Library.stated("jetty", org.eclipse.jetty.util.Jetty.VERSION),
                    Library.stated("java", Runtime.version().toString()));

    private final Datasets datasets;
    private final LabConfiguration configuration;
    private final ServedProtocols protocols;
    private final ServerProcess process;

    public InfoResource(
            Datasets datasets,
            LabConfiguration configuration,
            ServedProtocols protocols,
            ServerProcess process) {
        this.datasets = datasets;
        this.configuration = configuration;
        this.protocols = protocols;
        this.process = process;
    }

    @GET
    public Map<String, Object> info() {
        Map<String, Object> versions = versions();

        Map<String, Object> dataset = new LinkedHashMap<>();
        dataset.put("seed", datasets.seed());
        dataset.put("size", datasets.size());
        for (ObjectKind<?> kind : ObjectKind.ALL) {
            dataset.put(kind.plural(), datasets.get(kind).state().name().toLowerCase());
        }
        // The datasets users brought (docs/datasets.md): name, objects, content hash.
        dataset.put(
                "brought",
                datasets.brought().all().stream()
                        .map(
                                entry -> {
                                    Map<String, Object> brought = new LinkedHashMap<>();
                                    brought.put("name", entry.name());
                                    brought.put("objects", entry.count());
                                    brought.put("sha256", entry.sha256());
                                    return brought;
                                })
                        .toList());

        Map<String, Object> machine = new LinkedHashMap<>();
        machine.put("available_processors", Runtime.getRuntime().availableProcessors());
        machine.put("max_heap_bytes", Runtime.getRuntime().maxMemory());
        machine.put(
                "os",
                System.getProperty("os.name")
                        + " "
                        + System.getProperty("os.version")
                        + " "
                        + System.getProperty("os.arch"));

        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("head_bytes", configuration.getResponse().getHeadBytes());
        settings.put("max_sort_work", configuration.getComputation().getMaxSortWork());
        settings.put(
                "max_concurrent_computations", configuration.getComputation().getMaxConcurrent());
        settings.put("jvm_options", jvmOptions());

        Map<String, Object> info = new LinkedHashMap<>();
        info.put("application", "response-time-lab");
        info.put("versions", versions);
        info.put("compressions", compressions());
        info.put("dataset", dataset);
        info.put("settings", settings);
        info.put("ingest", ingest());
        info.put("protocols", protocols.served());
        if (protocols.note() != null) {
            info.put("protocols_note", protocols.note());
        }
        info.put("machine", machine);
        info.put("process", process.describe());
        return info;
    }

    /**
     * Every library's version: those read from a pom.properties by name, then those that state
     * their own, the formats' before the platform's.
     */
    private static Map<String, Object> versions() {
        List<Library> libraries =
                Stream.concat(
                                Arrays.stream(Format.values())
                                        .flatMap(f -> f.codec().libraries().stream()),
                                PLATFORM.stream())
                        .toList();
        Map<String, Object> versions = new LinkedHashMap<>();
        Map<String, String> fromPoms = new TreeMap<>();
        libraries.stream()
                .filter(l -> l.mavenCoordinates() != null)
                .forEach(l -> fromPoms.put(l.name(), l.version()));
        versions.putAll(fromPoms);
        libraries.stream()
                .filter(l -> l.mavenCoordinates() == null)
                .forEach(l -> versions.putIfAbsent(l.name(), l.version()));
        return versions;
    }

    /**
     * The JVM's own options (heap, GC, JIT: those starting with {@code -X}), as {@code
     * .mvn/jvm.config} and {@code MAVEN_OPTS} set them. They change what a run measures (a heap
     * that is not touched before the first request makes allocation fault pages in), so runs that
     * differ in them are not merged. System properties are left out: they name paths and ports that
     * differ from clone to clone.
     */
    static List<String> jvmOptions() {
        return jvmOptions(ManagementFactory.getRuntimeMXBean().getInputArguments());
    }

    static List<String> jvmOptions(List<String> inputArguments) {
        return inputArguments.stream().filter(argument -> argument.startsWith("-X")).toList();
    }

    /** The collector's limits and what it accepts. */
    private Map<String, Object> ingest() {
        LabConfiguration.IngestSettings settings = configuration.getIngest();
        Map<String, Object> ingest = new LinkedHashMap<>();
        ingest.put("max_body_bytes", settings.getMaxBodyBytes());
        ingest.put("max_decoded_bytes", settings.getMaxDecodedBytes());
        ingest.put("max_objects", settings.getMaxObjects());
        ingest.put("zstd_max_window_bytes", 1L << Compression.ZSTD_WINDOW_LOG_MAX);
        ingest.put("media_types", Format.posted().stream().map(Format::mediaType).toList());
        ingest.put(
                "encodings",
                Arrays.stream(Compression.values()).map(Compression::contentCoding).toList());
        return ingest;
    }

    /**
     * Per compression (none has no library): its library and version, its levels, and the first
     * level that takes a computation slot (null when none does).
     */
    private static Map<String, Object> compressions() {
        Map<String, Object> compressions = new LinkedHashMap<>();
        for (Compression compression : Compression.values()) {
            if (compression == Compression.NONE) {
                continue;
            }
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("library", compression.codec().library());
            entry.put("version", compression.codec().version());
            entry.put("levels", Catalogue.levels(compression.levels().orElseThrow()));
            entry.put("heavy_from", compression.heavyFrom().orElse(null));
            compressions.put(compression.parameter(), entry);
        }
        return compressions;
    }
}
