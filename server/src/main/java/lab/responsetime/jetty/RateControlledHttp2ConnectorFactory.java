package lab.responsetime.jetty;

import com.codahale.metrics.MetricRegistry;
import io.dropwizard.http2.Http2ConnectorFactory;
import org.eclipse.jetty.http2.RateControl;
import org.eclipse.jetty.http2.WindowRateControl;
import org.eclipse.jetty.http2.server.AbstractHTTP2ServerConnectionFactory;
import org.eclipse.jetty.http2.server.HTTP2ServerConnectionFactory;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.ThreadPool;

/**
 * Dropwizard's HTTP/2 connector with the limit of Jetty's HTTP/2 flood protection set
 * (docs/protocols.md#flood-protection): at most {@code maxRateControlledEventsPerSecond} of the
 * frames Jetty rate-controls, per connection, in any second (Jetty's {@link WindowRateControl});
 * one more ends the connection with GOAWAY {@code ENHANCE_YOUR_CALM}. Dropwizard's factory leaves
 * Jetty's default of 128 and has no setting for it.
 *
 * <p>It also leaves out Jetty's {@link HTTP2ServerConnectionFactory.AltSvcCustomizer}, which
 * advertises the server's HTTP/3 connector on every answer (Alt-Svc): each protocol has a port of
 * its own (docs/protocols.md), and a browser that followed the advertisement would move an h2
 * cell's requests to h3.
 */
public final class RateControlledHttp2ConnectorFactory extends Http2ConnectorFactory {
    /** Jetty's own limit ({@code AbstractHTTP2ServerConnectionFactory}), the server's default. */
    public static final int JETTY_DEFAULT_EVENTS_PER_SECOND = 128;

    private final int maxRateControlledEventsPerSecond;

    public RateControlledHttp2ConnectorFactory(int maxRateControlledEventsPerSecond) {
        if (maxRateControlledEventsPerSecond < 1) {
            throw new IllegalArgumentException(
                    "the HTTP/2 rate-controlled events per second must be at least 1, got "
                            + maxRateControlledEventsPerSecond);
        }
        this.maxRateControlledEventsPerSecond = maxRateControlledEventsPerSecond;
    }

    public int getMaxRateControlledEventsPerSecond() {
        return maxRateControlledEventsPerSecond;
    }

    @Override
    public Connector build(
            Server server, MetricRegistry metrics, String name, ThreadPool threadPool) {
        Connector connector = super.build(server, metrics, name, threadPool);
        AbstractHTTP2ServerConnectionFactory http2 =
                connector.getConnectionFactory(AbstractHTTP2ServerConnectionFactory.class);
        if (http2 == null) {
            throw new IllegalStateException(
                    "Dropwizard's HTTP/2 connector has no HTTP/2 connection factory to configure");
        }
        http2.setRateControlFactory(
                new WindowRateControl.Factory(maxRateControlledEventsPerSecond));
        http2.getHttpConfiguration()
                .getCustomizers()
                .removeIf(HTTP2ServerConnectionFactory.AltSvcCustomizer.class::isInstance);
        return connector;
    }

    /**
     * The limit Jetty applies on {@code connector}'s HTTP/2 connections, read from its rate control
     * as each connection gets it; null when the connector speaks no HTTP/2 or its rate control is
     * not Jetty's window rate control.
     */
    public static Integer eventsPerSecondOf(ServerConnector connector) {
        AbstractHTTP2ServerConnectionFactory http2 =
                connector.getConnectionFactory(AbstractHTTP2ServerConnectionFactory.class);
        if (http2 == null) {
            return null;
        }
        RateControl control = http2.getRateControlFactory().newRateControl(null);
        return control instanceof WindowRateControl window ? window.getEventsPerSecond() : null;
    }
}
