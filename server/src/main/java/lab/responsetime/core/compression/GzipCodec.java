package lab.responsetime.core.compression;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.zip.Deflater;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * {@link Compression#GZIP}: RFC 1952 gzip with the JDK's zlib. It decompresses with the JDK's
 * {@link GZIPInputStream}, which also reads a body of several members, and ignores bytes after the
 * last member that arrive with it.
 */
final class GzipCodec extends JdkZlibCodec {
    @Override
    public InputStream decompress(InputStream body) throws IOException {
        return new GZIPInputStream(body, READ_BUFFER_BYTES);
    }

    @Override
    public CompressingStream compress(OutputStream sink, int level) throws IOException {
        LeveledGzip gzip = new LeveledGzip(sink, level);
        return new ZlibStream(gzip, gzip.deflater());
    }

    /** GZIP at a given deflate level (GZIPOutputStream only takes the default one). */
    private static final class LeveledGzip extends GZIPOutputStream {
        LeveledGzip(OutputStream sink, int level) throws IOException {
            super(sink, ZlibStream.BUFFER_BYTES);
            def.setLevel(level);
        }

        Deflater deflater() {
            return def;
        }
    }
}
