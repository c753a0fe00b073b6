package lab.responsetime.resources;

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

/**
 * Serves the browser client at {@code /}: the client folder, read from disk on every request
 * so an edited page shows on reload (index.html for a folder; paths cannot leave the folder),
 * and from the classpath what the page needs besides its own files:
 * <ul>
 *   <li>{@code /proto/lab.proto} — the one schema, which the page parses with protobuf.js;
 *   <li>{@code /vendor/protobufjs/…} — protobuf.js's {@code dist/} bundles, from its WebJar.
 * </ul>
 */
public final class ClientFilesServlet extends HttpServlet {
    private static final String PROTO_PATH = "/proto/lab.proto";
    private static final String VENDOR_PROTOBUFJS = "/vendor/protobufjs/";
    private static final String PROTOBUFJS_POM =
            "META-INF/maven/org.webjars.npm/protobufjs/pom.properties";

    private static final Map<String, String> CONTENT_TYPES = Map.ofEntries(
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

    private final Path root;
    private final String protobufjsResources;

    public ClientFilesServlet(Path root) {
        this.root = root.toAbsolutePath().normalize();
        this.protobufjsResources = "META-INF/resources/webjars/protobufjs/" + protobufjsVersion() + "/";
    }

    /** The version of the protobuf.js WebJar on the classpath. */
    public static String protobufjsVersion() {
        try (InputStream in = ClientFilesServlet.class.getClassLoader().getResourceAsStream(PROTOBUFJS_POM)) {
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
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String path = request.getPathInfo() == null ? request.getServletPath() : request.getServletPath()
                + request.getPathInfo();
        if (path.equals(PROTO_PATH)) {
            serveResource(response, "lab.proto", path);
        } else if (path.startsWith(VENDOR_PROTOBUFJS) && !path.contains("..")) {
            serveResource(response, protobufjsResources + path.substring(VENDOR_PROTOBUFJS.length()), path);
        } else {
            serveFile(response, path);
        }
    }

    private void serveFile(HttpServletResponse response, String path) throws IOException {
        Path file = root.resolve(path.replaceFirst("^/+", "")).normalize();
        if (file.startsWith(root) && Files.isDirectory(file)) {
            file = file.resolve("index.html");
        }
        if (!file.startsWith(root) || !Files.isRegularFile(file)) {
            notFound(response, Files.isDirectory(root)
                    ? "No such file: " + path + ". The API is under /api/ (GET /api/books, GET /api/videos)."
                    : "The client folder " + root + " does not exist; start the server from the repository root "
                            + "or set client.directory.");
            return;
        }
        startAnswer(response, file.getFileName().toString());
        response.setContentLengthLong(Files.size(file));
        Files.copy(file, response.getOutputStream());
    }

    private void serveResource(HttpServletResponse response, String resource, String path) throws IOException {
        try (InputStream in = ClientFilesServlet.class.getClassLoader().getResourceAsStream(resource)) {
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
