package lab.responsetime.resources;

import com.fasterxml.jackson.core.JsonProcessingException;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import lab.responsetime.core.formats.JacksonMappers;

/**
 * Applies to every path of the application port:
 * <ul>
 *   <li>makes the client page cross-origin isolated (COOP {@code same-origin} + COEP
 *       {@code require-corp}), which gives it a 5 µs {@code performance.now()} (SPEC §7);
 *   <li>answers every method but GET and HEAD with a JSON 405, {@code Allow: GET, HEAD} and
 *       {@code Connection: close}.
 * </ul>
 */
public final class HttpPolicyFilter implements Filter {
    private static final Set<String> ALLOWED_METHODS = Set.of("GET", "HEAD");

    @Override
    public void doFilter(ServletRequest servletRequest, ServletResponse servletResponse, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest request = (HttpServletRequest) servletRequest;
        HttpServletResponse response = (HttpServletResponse) servletResponse;
        response.setHeader("Cross-Origin-Opener-Policy", "same-origin");
        response.setHeader("Cross-Origin-Embedder-Policy", "require-corp");
        response.setHeader("Cross-Origin-Resource-Policy", "same-origin");
        if (!ALLOWED_METHODS.contains(request.getMethod())) {
            response.setHeader("Allow", "GET, HEAD");
            // The request's body (if any) is never read: close the connection rather than leave
            // a keep-alive client on one that Jetty may drop once this answer is out.
            response.setHeader("Connection", "close");
            sendJsonError(response, HttpServletResponse.SC_METHOD_NOT_ALLOWED,
                    "Method " + request.getMethod() + " is not allowed; this server answers GET and HEAD only.");
            return;
        }
        chain.doFilter(request, response);
    }

    /** Writes {@code {"code": status, "message": message}} the way the API's other errors look. */
    static void sendJsonError(HttpServletResponse response, int status, String message) throws IOException {
        byte[] body = json(status, message).getBytes(StandardCharsets.UTF_8);
        response.setStatus(status);
        response.setContentType("application/json");
        response.setHeader("Cache-Control", "no-store");
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }

    /** {@code {"code": status, "message": "…"}}. */
    static String json(int status, String message) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("code", status);
        body.put("message", message);
        try {
            return JacksonMappers.JSON.writeValueAsString(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a map of a number and a string always serializes", e);
        }
    }
}
