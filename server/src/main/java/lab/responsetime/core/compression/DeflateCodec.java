package lab.responsetime.core.compression;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.Inflater;
import java.util.zip.InflaterInputStream;
import java.util.zip.ZipException;

/**
 * {@link Compression#DEFLATE}: HTTP's {@code deflate}, which is a zlib stream (RFC 1950: a two-byte
 * header, deflate data, an Adler-32 trailer), not raw deflate; with the JDK's zlib. A posted body's
 * zlib stream must end where the body ends.
 */
final class DeflateCodec extends JdkZlibCodec {
    @Override
    public InputStream decompress(InputStream body) {
        return new ZlibInputStream(body);
    }

    @Override
    public CompressingStream compress(OutputStream sink, int level) {
        Deflater deflater = new Deflater(level);
        return new ZlibStream(
                new DeflaterOutputStream(sink, deflater, ZlibStream.BUFFER_BYTES), deflater);
    }

    /**
     * A zlib stream that must end where the body ends: bytes left over after its end are refused
     * (the JDK's stream would drop them). Closing it ends its inflater, not the stream below.
     */
    private static final class ZlibInputStream extends InflaterInputStream {
        ZlibInputStream(InputStream in) {
            super(in, new Inflater(), READ_BUFFER_BYTES);
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = super.read(buffer, offset, length);
            if (n < 0 && inf.needsDictionary()) {
                throw new ZipException(
                        "the zlib stream needs a preset dictionary, which HTTP's deflate has none"
                                + " of");
            }
            if (n < 0 && inf.getRemaining() > 0) {
                throw new ZipException(
                        inf.getRemaining() + " bytes follow the end of the zlib stream");
            }
            return n;
        }

        @Override
        public void close() {
            inf.end();
        }
    }
}
