package lab.responsetime.core.compression;

import java.io.OutputStream;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;

/**
 * {@link Compression#DEFLATE}: HTTP's {@code deflate}, which is a zlib stream (RFC 1950: a two-byte
 * header, deflate data, an Adler-32 trailer), not raw deflate; with the JDK's zlib.
 */
final class DeflateCompressor extends JdkZlibCompressor {
    @Override
    public CompressingStream open(OutputStream sink, int level) {
        Deflater deflater = new Deflater(level);
        return new ZlibStream(
                new DeflaterOutputStream(sink, deflater, ZlibStream.BUFFER_BYTES), deflater);
    }
}
