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

/**
 * Applies to every path of the application port:
 * <ul>
 *   <li>makes the client page cross-origin isolated (COOP {@code same-origin} + COEP
 *       {@code require-corp}), which gives it a 5 µs {@code performance.now()} (SPEC §7);
 *   <li>sends a HEAD answer's headers without {@code Content-Length} unless the application
 *       set one (a HEAD answer does not make the body whose length that would be);
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
            ApiErrors.send(response, HttpServletResponse.SC_METHOD_NOT_ALLOWED,
                    "Method " + request.getMethod() + " is not allowed; this server answers GET and HEAD only.");
            return;
        }
        chain.doFilter(request, response);
        if ("HEAD".equals(request.getMethod()) && !response.isCommitted()
                && !response.containsHeader(HttpHeaders.CONTENT_LENGTH)) {
            // A HEAD answer whose body was never made has no known length: send the headers
            // without one, rather than let Jetty close the empty answer with "Content-Length: 0".
            response.flushBuffer();
        }
    }
}
