package lab.responsetime.jetty;

import io.dropwizard.lifecycle.ServerLifecycleListener;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.NetworkConnector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * The protocols the running server's application connectors speak, with their ports, in the lab's
 * names (common/protocols.js): {@code http1.1} (cleartext), {@code http1.1-tls}, {@code h2}, {@code
 * h3} (a UDP port). Read from Jetty's connectors once they listen, so a port picked by the system
 * (0) is the real one.
 */
public final class ServedProtocols implements ServerLifecycleListener {
    /** Dropwizard's name for the connectors of the application (the others are "admin"). */
    private static final String APPLICATION = "application";

    private final String note;
    private volatile List<Map<String, Object>> served = List.of();

    /**
     * @param note why a protocol is not served (the TLS key store or the QUIC library is missing),
     *     or null
     */
    public ServedProtocols(String note) {
        this.note = note;
    }

    /** The lab's name of a connector that speaks Jetty's {@code protocols}. */
    static String nameOf(List<String> protocols) {
        if (protocols.contains("h3")) {
            return "h3";
        }
        if (protocols.contains("h2")) {
            return "h2";
        }
        return protocols.contains("ssl") ? "http1.1-tls" : "http1.1";
    }

    /** Reads the listening connectors; called when the server has started. */
    @Override
    public void serverStarted(Server server) {
        List<Map<String, Object>> found = new ArrayList<>();
        for (Connector connector : server.getConnectors()) {
            if (connector instanceof NetworkConnector listening
                    && APPLICATION.equals(connector.getName())) {
                String name = nameOf(listening.getProtocols());
                Map<String, Object> entry = new LinkedHashMap<>();
                entry.put("name", name);
                entry.put("scheme", "http1.1".equals(name) ? "http" : "https");
                entry.put("port", listening.getLocalPort());
                entry.put("jetty_protocols", List.copyOf(listening.getProtocols()));
                Integer eventsPerSecond =
                        listening instanceof ServerConnector tcp
                                ? RateControlledHttp2ConnectorFactory.eventsPerSecondOf(tcp)
                                : null;
                if (eventsPerSecond != null) {
                    entry.put("max_rate_controlled_events_per_s", eventsPerSecond);
                }
                if ("h3".equals(name)) {
                    entry.put("quic_library", QuicheLibrary.inUse());
                }
                found.add(entry);
            }
        }
        served = List.copyOf(found);
    }

    /**
     * [{name, scheme, port, jetty_protocols}], one per application connector; an HTTP/2 one also
     * has {@code max_rate_controlled_events_per_s}, the limit of Jetty's flood protection it runs
     * with, and the h3 one {@code quic_library}, the native QUIC library and the lab's changes to
     * it ({@link QuicheLibrary#inUse()}).
     */
    public List<Map<String, Object>> served() {
        return served;
    }

    /** Why a protocol is not served, or null. */
    public String note() {
        return note;
    }
}
