package lab.responsetime.core.compression;

import java.io.IOException;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;

/**
 * GZIP or deflate with the JDK's {@code java.util.zip} (zlib): a {@link DeflaterOutputStream} and
 * its {@link Deflater}, whose native memory {@link #release()} ends. The JDK stream itself is never
 * closed, so it never closes the sink.
 */
final class ZlibStream extends CompressingStream {
    /**
     * The deflater's output buffer: larger than the JDK's 512-byte default, to avoid tiny writes.
     */
    static final int BUFFER_BYTES = 64 * 1024;

    private final DeflaterOutputStream out;
    private final Deflater deflater;

    ZlibStream(DeflaterOutputStream out, Deflater deflater) {
        this.out = out;
        this.deflater = deflater;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        out.write(b, off, len);
    }

    @Override
    public void finish() throws IOException {
        out.finish();
    }

    @Override
    protected void release() {
        deflater.end();
    }
}
