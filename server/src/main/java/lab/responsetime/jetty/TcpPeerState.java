package lab.responsetime.jetty;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Whether the peer of a TCP connection has closed it, as the kernel says: Linux lists this
 * process's TCP sockets, with their state, in {@code /proc/self/net/tcp} and {@code tcp6}. A socket
 * whose peer sent its FIN is in CLOSE_WAIT (or a later closing state) even while bytes it sent
 * before remain unread, which is what a client that closes a TLS connection leaves (its
 * close_notify alert, then its FIN); a socket the peer reset is no longer listed.
 */
final class TcpPeerState {
    private static final List<Path> TABLES =
            List.of(Path.of("/proc/self/net/tcp"), Path.of("/proc/self/net/tcp6"));

    /** ESTABLISHED (01), FIN_WAIT1 (04) and FIN_WAIT2 (05): the peer has not closed its side. */
    private static final Set<String> PEER_OPEN = Set.of("01", "04", "05");

    /** Whether a kernel table is there to read (Linux). */
    static final boolean AVAILABLE = TABLES.stream().allMatch(Files::isReadable);

    private TcpPeerState() {}

    /**
     * Whether the peer of the connection from {@code local} to {@code remote} has closed or reset
     * it: true when the kernel lists it in a state after the peer's FIN, or no longer lists it;
     * false while it is open from the peer's side; null when the kernel's tables cannot be read.
     */
    static Boolean peerClosed(InetSocketAddress local, InetSocketAddress remote) {
        if (!AVAILABLE) {
            return null;
        }
        String localPort = port(local);
        String remotePort = port(remote);
        Set<String> remoteAddresses = encodings(remote.getAddress());
        try {
            for (Path table : TABLES) {
                for (String line : Files.readAllLines(table)) {
                    String[] fields = line.trim().split("\\s+");
                    if (fields.length < 4 || !fields[1].contains(":")) {
                        continue; // the heading
                    }
                    String[] from = fields[1].split(":");
                    String[] to = fields[2].split(":");
                    if (from[1].equals(localPort)
                            && to[1].equals(remotePort)
                            && remoteAddresses.contains(to[0])) {
                        return !PEER_OPEN.contains(fields[3]);
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        return true;
    }

    private static String port(InetSocketAddress address) {
        return String.format(Locale.ROOT, "%04X", address.getPort());
    }

    /**
     * How the kernel's tables write {@code address}: each 32-bit word of it as a number in this
     * machine's byte order, in hexadecimal; an IPv4 address also as IPv6's mapped form ({@code
     * ::ffff:a.b.c.d}), which a dual-stack socket's connections show in {@code tcp6}.
     */
    static Set<String> encodings(InetAddress address) {
        byte[] bytes = address.getAddress();
        if (address instanceof Inet4Address) {
            byte[] mapped = new byte[16];
            mapped[10] = (byte) 0xff;
            mapped[11] = (byte) 0xff;
            System.arraycopy(bytes, 0, mapped, 12, 4);
            return Set.of(words(bytes), words(mapped));
        }
        return Set.of(words(bytes));
    }

    private static String words(byte[] bytes) {
        byte[] ordered = bytes.clone();
        if (ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN) {
            for (int word = 0; word < ordered.length; word += 4) {
                for (int i = 0; i < 2; i++) {
                    byte swap = ordered[word + i];
                    ordered[word + i] = ordered[word + 3 - i];
                    ordered[word + 3 - i] = swap;
                }
            }
        }
        return HexFormat.of().withUpperCase().formatHex(ordered);
    }
}
