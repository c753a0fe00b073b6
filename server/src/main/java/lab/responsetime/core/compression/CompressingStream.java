package lab.responsetime.core.compression;

import java.io.IOException;
import java.io.OutputStream;

/**
 * A stream that compresses what is written to it into a sink, opened by a {@link CompressionCodec}.
 *
 * <p>{@link #finish()} compresses what the compressor still holds and writes the end of the
 * compressed stream. {@link #close()} releases the compressor's memory (native memory, for every
 * library here): after {@code finish()}, or instead of it when the body failed or nobody waits for
 * it any more, in which case what the compressor still holds is dropped, not compressed. Neither
 * closes the sink, so no library can close the stream under it (the response's, for a body).
 *
 * <p>Flushes are ignored: a flush would end the compressor's current block early (brotli, zstd),
 * making the body larger and the timing different from one written in one go; {@code finish()}
 * writes everything.
 */
public abstract class CompressingStream extends OutputStream {
    private boolean released;

    /** Compresses the rest and writes the end of the compressed stream to the sink. */
    public abstract void finish() throws IOException;

    /** Frees what the compressor holds; called once. */
    protected abstract void release();

    @Override
    public abstract void write(byte[] b, int off, int len) throws IOException;

    @Override
    public final void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public final void flush() {}

    /** Releases the compressor's memory; without {@link #finish()} first, drops what it holds. */
    @Override
    public final void close() {
        if (!released) {
            released = true;
            release();
        }
    }
}
