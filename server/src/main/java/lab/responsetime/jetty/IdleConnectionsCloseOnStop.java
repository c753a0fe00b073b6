package lab.responsetime.jetty;

import io.dropwizard.lifecycle.ServerLifecycleListener;
import java.time.Duration;
import org.eclipse.jetty.server.AbstractConnector;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;

/**
 * When the server stops, a connection with no request on it closes within {@link #IDLE_ON_STOP}
 * rather than Jetty's default second. Jetty's graceful stop waits until every connection of every
 * connector is closed, within the server's grace (server.shutdownGracePeriod, 2 s): a client's idle
 * keep-alive connection took half of it, and on a loaded machine its close came after the grace,
 * which ended the stop with a TimeoutException. A connection still answering a request keeps the
 * whole grace.
 */
public final class IdleConnectionsCloseOnStop implements ServerLifecycleListener {
    static final Duration IDLE_ON_STOP = Duration.ofMillis(100);

    @Override
    public void serverStarted(Server server) {
        for (Connector connector : server.getConnectors()) {
            if (connector instanceof AbstractConnector abstractConnector) {
                abstractConnector.setShutdownIdleTimeout(IDLE_ON_STOP.toMillis());
            }
        }
    }
}
