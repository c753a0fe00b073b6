package lab.responsetime.jetty;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;

/**
 * Hands each API request the {@link lab.responsetime.core.computation.ClientPresence} of its
 * connection as the request attribute {@link #ATTRIBUTE}, which JAX-RS resources read as a request
 * property. Nothing is watched until work asks for it.
 */
public final class ClientPresenceFilter implements Filter {
    public static final String ATTRIBUTE = "lab.responsetime.clientPresence";

    private final ConnectionWatcher watcher;

    public ClientPresenceFilter(ConnectionWatcher watcher) {
        this.watcher = watcher;
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        request.setAttribute(ATTRIBUTE, watcher.presenceOf((HttpServletRequest) request));
        chain.doFilter(request, response);
    }
}
