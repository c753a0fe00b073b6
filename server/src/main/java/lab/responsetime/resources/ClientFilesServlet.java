package lab.responsetime.resources;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/**
 * Serves the browser client's folder at {@code /} (index.html for a folder), read from disk on
 * every request so an edited page shows on reload. Paths cannot leave the folder.
 */
public final class ClientFilesServlet extends HttpServlet {
    private static final Map<String, String> CONTENT_TYPES = Map.ofEntries(
            Map.entry("html", "text/html; charset=utf-8"),
            Map.entry("js", "text/javascript; charset=utf-8"),
            Map.entry("mjs", "text/javascript; charset=utf-8"),
            Map.entry("css", "text/css; charset=utf-8"),
            Map.entry("json", "application/json"),
            Map.entry("proto", "text/plain; charset=utf-8"),
            Map.entry("txt", "text/plain; charset=utf-8"),
            Map.entry("svg", "image/svg+xml"),
            Map.entry("png", "image/png"),
            Map.entry("ico", "image/x-icon"),
            Map.entry("wasm", "application/wasm"));

    private final Path root;

    public ClientFilesServlet(Path root) {
        this.root = root.toAbsolutePath().normalize();
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String path = request.getPathInfo() == null ? request.getServletPath() : request.getServletPath()
                + request.getPathInfo();
        Path file = root.resolve(path.replaceFirst("^/+", "")).normalize();
        if (file.startsWith(root) && Files.isDirectory(file)) {
            file = file.resolve("index.html");
        }
        if (!file.startsWith(root) || !Files.isRegularFile(file)) {
            String message = Files.isDirectory(root)
                    ? "No such file: " + path + ". The API is under /api/ (GET /api/books, GET /api/videos)."
                    : "The client folder " + root + " does not exist; start the server from the repository root "
                            + "or set client.directory.";
            HttpPolicyFilter.sendJsonError(response, HttpServletResponse.SC_NOT_FOUND, message);
            return;
        }
        String name = file.getFileName().toString();
        String extension = name.substring(name.lastIndexOf('.') + 1).toLowerCase(Locale.ROOT);
        response.setContentType(CONTENT_TYPES.getOrDefault(extension, "application/octet-stream"));
        response.setHeader("Cache-Control", "no-cache");
        response.setContentLengthLong(Files.size(file));
        Files.copy(file, response.getOutputStream());
    }
}
