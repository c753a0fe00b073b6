package lab.responsetime.core.compression;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * A {@link CompressingStream} over a native compressor that reads its input from a direct buffer:
 * writes gather into the buffer, and each time it is full the compressor takes it ({@link
 * #compress(boolean) compress(false)}); {@link #finish()} hands it the rest and ends the stream
 * ({@code compress(true)}).
 */
abstract class GatheringStream extends CompressingStream {
    /** The gathered input; {@link #compress} leaves it cleared. */
    protected final ByteBuffer input;

    GatheringStream(ByteBuffer input) {
        this.input = input;
    }

    /**
     * Compresses what {@link #input} holds (and, when {@code end}, ends the stream), sending the
     * output.
     */
    protected abstract void compress(boolean end) throws IOException;

    @Override
    public final void write(byte[] b, int off, int len) throws IOException {
        while (len > 0) {
            int n = Math.min(len, input.remaining());
            input.put(b, off, n);
            off += n;
            len -= n;
            if (!input.hasRemaining()) {
                compress(false);
            }
        }
    }

    @Override
    public final void finish() throws IOException {
        compress(true);
    }
}
