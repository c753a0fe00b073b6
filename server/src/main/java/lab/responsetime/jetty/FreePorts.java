package lab.responsetime.jetty;

import io.dropwizard.core.server.DefaultServerFactory;
import io.dropwizard.jetty.ConnectorFactory;
import io.dropwizard.jetty.HttpConnectorFactory;
import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.List;

/**
 * Before the server starts: every port it will listen on is free, or the start stops with one line
 * naming the port, what has it and the setting to change. Jetty would fail the same way a moment
 * later, with a stack trace ending in "Failed to bind to /127.0.0.1:8443".
 */
public final class FreePorts {
    private FreePorts() {}

    /**
     * Throws {@link PortUnavailableException} for the first port of {@code server} that is taken.
     */
    public static void require(DefaultServerFactory server) {
        check(server.getApplicationConnectors(), "server.applicationConnectors");
        check(server.getAdminConnectors(), "server.adminConnectors");
    }

    private static void check(List<ConnectorFactory> connectors, String listName) {
        for (int i = 0; i < connectors.size(); i++) {
            if (!(connectors.get(i) instanceof HttpConnectorFactory connector)
                    || connector.getPort() == 0) {
                continue;
            }
            String setting = TlsConnectors.settingOf(connector, listName + "[" + i + "].port");
            boolean udp = connector instanceof Http3ConnectorFactory;
            InetSocketAddress address =
                    connector.getBindHost() == null
                            ? new InetSocketAddress(connector.getPort())
                            : new InetSocketAddress(connector.getBindHost(), connector.getPort());
            if (!free(address, udp)) {
                throw new PortUnavailableException(
                        (udp ? "UDP" : "TCP")
                                + " port "
                                + connector.getPort()
                                + " on "
                                + (connector.getBindHost() == null
                                        ? "every interface"
                                        : connector.getBindHost())
                                + " is taken (another server?): stop what has it, or set "
                                + setting
                                + " to a free port (-Ddw."
                                + setting
                                + "=<port>, or 0 to let the system pick one)");
            }
        }
    }

    /**
     * Whether this process can bind {@code address} now, as Jetty will (TCP with address reuse).
     */
    static boolean free(InetSocketAddress address, boolean udp) {
        try {
            if (udp) {
                try (DatagramSocket socket = new DatagramSocket(address)) {
                    return true;
                }
            }
            try (ServerSocket socket = new ServerSocket()) {
                socket.setReuseAddress(true);
                socket.bind(address);
                return true;
            }
        } catch (IOException e) {
            return false;
        }
    }
}
