package lab.responsetime.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * HTTP/2 framed by hand (RFC 9113), for the tests that must decide exactly what a client sends: the
 * connection preface, frames, and a GET's header block.
 */
public final class H2Frames {
    /** The client's connection preface. */
    public static final byte[] PREFACE =
            "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    private H2Frames() {}

    /**
     * A GET's header block in HPACK (RFC 7541): :method GET and :scheme https from the static
     * table, :path and :authority as literals without indexing, their names from the static table.
     */
    public static byte[] get(String path) throws IOException {
        ByteArrayOutputStream block = new ByteArrayOutputStream();
        block.write(0x82); // :method GET
        block.write(0x87); // :scheme https
        literal(block, 0x04, path); // :path
        literal(block, 0x01, "localhost"); // :authority
        return block.toByteArray();
    }

    private static void literal(ByteArrayOutputStream block, int nameIndex, String value)
            throws IOException {
        byte[] bytes = value.getBytes(StandardCharsets.US_ASCII);
        if (bytes.length >= 127) {
            throw new IllegalArgumentException("a short value only: " + value);
        }
        block.write(nameIndex);
        block.write(bytes.length);
        block.write(bytes);
    }

    /** A frame: its 9-byte header (length, type, flags, stream) and its payload. */
    public static byte[] frame(int type, int flags, int stream, byte[] payload) {
        return ByteBuffer.allocate(9 + payload.length)
                .put((byte) (payload.length >>> 16))
                .put((byte) (payload.length >>> 8))
                .put((byte) payload.length)
                .put((byte) type)
                .put((byte) flags)
                .putInt(stream)
                .put(payload)
                .array();
    }
}
