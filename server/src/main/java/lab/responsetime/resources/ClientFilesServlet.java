package lab.responsetime.resources;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;

/**
 * Serves the browser client at {@code /}: the client folder, read from disk on every request so an
 * edited page shows on reload (index.html for a folder; paths cannot leave the folder), and what
 * the page needs besides its own files:
 *
 * <ul>
 *   <li>{@code /common/…} — the code the page shares with the study and the analysis (the
 *       repository's {@code common/} folder, beside the client folder);
 *   <li>{@code /vendor/npm/<package>/…} — the decoders' npm packages as installed, from {@code
 *       node_modules/} beside the client folder (the page reads their versions there; it loads each
 *       package as one module the set-up makes, {@code client/vendor/<package>.js}, served as a
 *       client file); only the packages {@code package.json} lists under {@code dependencies} (the
 *       page's libraries, not the tools');
 *   <li>{@code /proto/lab.proto} — the one schema, which the page parses with protobuf.js;
 *   <li>{@code /vendor/protobufjs/…} — protobuf.js's {@code dist/} bundles, from its WebJar.
 * </ul>
 */
public final class ClientFilesServlet extends HttpServlet {
    private static final String PROTO_PATH = "/proto/lab.proto";
    private static final String VENDOR_PROTOBUFJS = "/vendor/protobufjs/";
    private static final String PROTOBUFJS_POM =
            "META-INF/maven/org.webjars.npm/protobufjs/pom.properties";

    private static final Map<String, String> CONTENT_TYPES =
            Map.ofEntries(
                    Map.entry("html", "text/html; charset=utf-8"),
                    Map.entry("js", "text/javascript; charset=utf-8"),
                    Map.entry("mjs", "text/javascript; charset=utf-8"),
                    Map.entry("css", "text/css; charset=utf-8"),
                    Map.entry("json", "application/json"),
                    Map.entry("map", "application/json"),
                    Map.entry("proto", "text/plain; charset=utf-8"),
                    Map.entry("txt", "text/plain; charset=utf-8"),
                    Map.entry("svg", "image/svg+xml"),
                    Map.entry("png", "image/png"),
                    Map.entry("ico", "image/x-icon"),
                    Map.entry("wasm", "application/wasm"));

    private static final String COMMON = "/common/";
    private static final String VENDOR_NPM = "/vendor/npm/";

    private final Path root;
    private final Path common;
    private final Path nodeModules;
    private final Set<String> pagePackages;
    private final String protobufjsResources;

    public ClientFilesServlet(Path root) {
        this.root = root.toAbsolutePath().normalize();
        this.common = this.root.resolveSibling("common");
        this.nodeModules = this.root.resolveSibling("node_modules");
        this.pagePackages = pagePackages(this.root.resolveSibling("package.json"));
        this.protobufjsResources =
                "META-INF/resources/webjars/protobufjs/" + protobufjsVersion() + "/";
    }

    /** The names under {@code dependencies} in package.json: the npm packages the page loads. */
    static Set<String> pagePackages(Path packageJson) {
        if (!Files.isRegularFile(packageJson)) {
            return Set.of();
        }
        try {
            JsonNode dependencies =
                    new ObjectMapper().readTree(packageJson.toFile()).path("dependencies");
            Set<String> names = new TreeSet<>();
            dependencies.fieldNames().forEachRemaining(names::add);
            return Set.copyOf(names);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + packageJson, e);
        }
    }

    /** The version of the protobuf.js WebJar on the classpath. */
    public static String protobufjsVersion() {
        try (InputStream in =
                ClientFilesServlet.class.getClassLoader().getResourceAsStream(PROTOBUFJS_POM)) {
            if (in == null) {
                throw new IllegalStateException("the protobuf.js WebJar is not on the classpath");
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        String path =
                request.getPathInfo() == null
                        ? request.getServletPath()
                        : request.getServletPath() + request.getPathInfo();
        if (path.equals(PROTO_PATH)) {
            serveResource(response, "lab.proto", path);
        } else if (path.startsWith(VENDOR_PROTOBUFJS) && !path.contains("..")) {
            serveResource(
                    response,
                    protobufjsResources + path.substring(VENDOR_PROTOBUFJS.length()),
                    path);
        } else if (path.startsWith(COMMON)) {
            serveFile(response, common, path.substring(COMMON.length()), path);
        } else if (path.startsWith(VENDOR_NPM)) {
            String rest = path.substring(VENDOR_NPM.length());
            String name = packageName(rest);
            if (name == null || !pagePackages.contains(name)) {
                notFound(
                        response,
                        "No such package: "
                                + path
                                + ". The page's packages are "
                                + pagePackages
                                + " (package.json's dependencies; `npm ci` installs them).");
                return;
            }
            serveFile(response, nodeModules.resolve(name), rest.substring(name.length()), path);
        } else {
            serveFile(response, root, path, path);
        }
    }

    /**
     * The package a path under /vendor/npm/ names: "cborg" or "@msgpack/msgpack"; null when none.
     */
    private static String packageName(String rest) {
        String[] parts = rest.split("/", -1);
        if (parts.length >= 3 && parts[0].startsWith("@")) {
            return parts[0] + "/" + parts[1];
        }
        return parts.length >= 2 ? parts[0] : null;
    }

    private void serveFile(HttpServletResponse response, Path folder, String relative, String path)
            throws IOException {
        Path file = folder.resolve(relative.replaceFirst("^/+", "")).normalize();
        if (file.startsWith(folder) && Files.isDirectory(file)) {
            file = file.resolve("index.html");
        }
        if (!file.startsWith(folder) || !Files.isRegularFile(file)) {
            notFound(
                    response,
                    Files.isDirectory(folder)
                            ? "No such file: "
                                    + path
                                    + ". The API is under /api/ (GET /api/books, GET /api/videos)."
                            : "The folder "
                                    + folder
                                    + " does not exist; start the server from the repository root "
                                    + "or set client.directory (node_modules: `npm ci`).");
            return;
        }
        startAnswer(response, file.getFileName().toString());
        response.setContentLengthLong(Files.size(file));
        Files.copy(file, response.getOutputStream());
    }

    private void serveResource(HttpServletResponse response, String resource, String path)
            throws IOException {
        try (InputStream in =
                ClientFilesServlet.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                notFound(response, "No such file: " + path);
                return;
            }
            byte[] bytes = in.readAllBytes();
            startAnswer(response, path);
            response.setContentLength(bytes.length);
            response.getOutputStream().write(bytes);
        }
    }

    private static void startAnswer(HttpServletResponse response, String name) {
        String extension = name.substring(name.lastIndexOf('.') + 1).toLowerCase(Locale.ROOT);
        response.setContentType(CONTENT_TYPES.getOrDefault(extension, "application/octet-stream"));
        response.setHeader("Cache-Control", "no-cache");
    }

    private static void notFound(HttpServletResponse response, String message) throws IOException {
        ApiErrors.send(response, HttpServletResponse.SC_NOT_FOUND, message);
    }
}
