package lab.responsetime.resources;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.ws.rs.core.HttpHeaders;
import java.io.IOException;
import java.util.Set;
import java.util.stream.Collectors;
import lab.responsetime.core.dataset.ObjectKind;
import lab.responsetime.core.formats.Format;

/**
 * Applies to every path of the application port:
 *
 * <ul>
 *   <li>makes the client page cross-origin isolated (COOP {@code same-origin} + COEP {@code
 *       require-corp}), which gives it a 5 µs {@code performance.now()}
 *       (docs/method.md#cell-statistics);
 *   <li>sends a HEAD answer's headers without {@code Content-Length} unless the application set one
 *       (a HEAD answer does not make the body whose length that would be);
 *   <li>answers every method but GET and HEAD — and POST at the collector's paths, {@code
 *       /api/books} and {@code /api/videos} ({@link IngestResource}) — with a JSON 405, {@code
 *       Allow} ({@code GET, HEAD}, or {@code GET, HEAD, POST} at those paths) and {@code
 *       Connection: close};
 *   <li>answers a POST to the collector whose Content-Type names no format with a JSON 415 (as the
 *       collector would; Jersey would answer a Content-Type it cannot parse with a bare 400).
 * </ul>
 */
public final class HttpPolicyFilter implements Filter {
    private static final Set<String> ALLOWED_METHODS = Set.of("GET", "HEAD");

    /** A brought dataset's path, {@code /api/datasets/{name}}, also takes PUT and DELETE. */
    private static final String DATASETS_PREFIX = "/api/datasets/";

    private static final Set<String> DATASET_METHODS = Set.of("PUT", "DELETE");

    /** Where POST is allowed too: the collector. */
    private static final Set<String> POST_PATHS =
            ObjectKind.ALL.stream()
                    .map(kind -> "/api/" + kind.plural())
                    .collect(Collectors.toUnmodifiableSet());

    private static final String ONLY_GET_AND_HEAD =
            " is not allowed; this server answers GET and HEAD only (and POST at "
                    + String.join(" and ", POST_PATHS.stream().sorted().toList())
                    + ").";

    @Override
    public void doFilter(
            ServletRequest servletRequest, ServletResponse servletResponse, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest request = (HttpServletRequest) servletRequest;
        HttpServletResponse response = (HttpServletResponse) servletResponse;
        response.setHeader("Cross-Origin-Opener-Policy", "same-origin");
        response.setHeader("Cross-Origin-Embedder-Policy", "require-corp");
        response.setHeader("Cross-Origin-Resource-Policy", "same-origin");
        String path = request.getRequestURI().substring(request.getContextPath().length());
        boolean collector = POST_PATHS.contains(path);
        boolean dataset =
                path.startsWith(DATASETS_PREFIX) && path.length() > DATASETS_PREFIX.length();
        if (dataset) {
            if (!ALLOWED_METHODS.contains(request.getMethod())
                    && !DATASET_METHODS.contains(request.getMethod())) {
                response.setHeader("Allow", "GET, HEAD, PUT, DELETE");
                response.setHeader("Connection", "close");
                ApiErrors.send(
                        response,
                        HttpServletResponse.SC_METHOD_NOT_ALLOWED,
                        "Method "
                                + request.getMethod()
                                + " is not allowed; "
                                + path
                                + " answers GET, HEAD, PUT and DELETE only.");
                return;
            }
            chain.doFilter(request, response);
            return;
        }
        if (!ALLOWED_METHODS.contains(request.getMethod())
                && !(collector && "POST".equals(request.getMethod()))) {
            response.setHeader("Allow", collector ? "GET, HEAD, POST" : "GET, HEAD");
            // The request's body (if any) is never read: close the connection rather than leave
            // a keep-alive client on one that Jetty may drop once this answer is out.
            response.setHeader("Connection", "close");
            ApiErrors.send(
                    response,
                    HttpServletResponse.SC_METHOD_NOT_ALLOWED,
                    collector
                            ? "Method "
                                    + request.getMethod()
                                    + " is not allowed; "
                                    + path
                                    + " answers GET, HEAD and POST only."
                            : "Method " + request.getMethod() + ONLY_GET_AND_HEAD);
            return;
        }
        if (collector
                && "POST".equals(request.getMethod())
                && Format.forContentType(request.getContentType()).isEmpty()) {
            // Before Jersey, which answers a Content-Type it cannot parse with a bare 400.
            response.setHeader(IngestResource.ACCEPT_POST, Format.postedMediaTypes());
            response.setHeader("Connection", "close");
            ApiErrors.send(
                    response,
                    HttpServletResponse.SC_UNSUPPORTED_MEDIA_TYPE,
                    IngestResource.unsupportedContentTypeMessage(request.getContentType()));
            return;
        }
        chain.doFilter(request, response);
        if ("HEAD".equals(request.getMethod())
                && !response.isCommitted()
                && !response.containsHeader(HttpHeaders.CONTENT_LENGTH)) {
            // A HEAD answer whose body was never made has no known length: send the headers
            // without one, rather than let Jetty close the empty answer with "Content-Length: 0".
            response.flushBuffer();
        }
    }
}
