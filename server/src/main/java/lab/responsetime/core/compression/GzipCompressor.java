package lab.responsetime.core.compression;

import java.io.IOException;
import java.io.OutputStream;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;

/** {@link Compression#GZIP}: RFC 1952 gzip with the JDK's zlib. */
final class GzipCompressor extends JdkZlibCompressor {
    @Override
    public CompressingStream open(OutputStream sink, int level) throws IOException {
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
