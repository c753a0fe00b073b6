package lab.responsetime.core.compression;

import com.github.luben.zstd.EndDirective;
import com.github.luben.zstd.RecyclingBufferPool;
import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdInputStreamNoFinalizer;
import com.github.luben.zstd.util.ZstdVersion;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;

/**
 * {@link Compression#ZSTD}: Zstandard (RFC 8878) with zstd-jni, one frame per body, streamed with a
 * compression context ({@link ZstdCompressCtx}): unlike {@code ZstdOutputStream}, the context can
 * be freed without ending the frame, so abandoned work is not finished, and it never sees (or
 * closes) the sink.
 *
 * <p>It compresses between direct buffers: zstd-jni pins heap arrays for the whole of a native call
 * (JNI critical regions, during which the JVM cannot collect garbage), and one call at level 19 can
 * take tens of milliseconds.
 *
 * <p>It decompresses one frame or several, with windows up to {@link
 * Compression#ZSTD_WINDOW_LOG_MAX 8 MiB}; a frame asking for more is refused.
 */
final class ZstdCodec implements CompressionCodec {
    /** Input gathered before a call into zstd: one block (ZSTD_CStreamInSize). */
    private static final int INPUT_BYTES = 128 * 1024;

    /**
     * Compressed bytes gathered before a write to the sink: one block and its header
     * (ZSTD_CStreamOutSize).
     */
    private static final int OUTPUT_BYTES = 128 * 1024 + 512;

    /**
     * Each thread's buffers, reused from body to body: a server thread writes one body at a time.
     */
    private final ThreadLocal<Buffers> buffers = ThreadLocal.withInitial(Buffers::new);

    @Override
    public InputStream decompress(InputStream body) throws IOException {
        ZstdInputStreamNoFinalizer zstd =
                new ZstdInputStreamNoFinalizer(body, RecyclingBufferPool.INSTANCE);
        try {
            return zstd.setLongMax(Compression.ZSTD_WINDOW_LOG_MAX);
        } catch (IOException | RuntimeException e) {
            zstd.close();
            throw e;
        }
    }

    @Override
    public CompressingStream compress(OutputStream sink, int level) {
        ZstdCompressCtx context = new ZstdCompressCtx();
        try {
            context.setLevel(level);
        } catch (RuntimeException e) {
            context.close();
            throw e;
        }
        return new ZstdStream(context, buffers.get().cleared(), sink);
    }

    @Override
    public String library() {
        return "zstd-jni";
    }

    /** zstd-jni's version: zstd's own, then zstd-jni's release of it ({@code 1.5.7-28}). */
    @Override
    public String version() {
        return ZstdVersion.VERSION;
    }

    private static final class Buffers {
        final ByteBuffer input = ByteBuffer.allocateDirect(INPUT_BYTES);
        final ByteBuffer output = ByteBuffer.allocateDirect(OUTPUT_BYTES);
        final byte[] transfer = new byte[OUTPUT_BYTES];

        Buffers cleared() {
            input.clear();
            output.clear();
            return this;
        }
    }

    private static final class ZstdStream extends GatheringStream {
        private final ZstdCompressCtx context;
        private final ByteBuffer output;
        private final byte[] transfer;
        private final OutputStream sink;

        ZstdStream(ZstdCompressCtx context, Buffers buffers, OutputStream sink) {
            super(buffers.input);
            this.context = context;
            this.output = buffers.output;
            this.transfer = buffers.transfer;
            this.sink = sink;
        }

        @Override
        protected void compress(boolean end) throws IOException {
            compress(end ? EndDirective.END : EndDirective.CONTINUE);
        }

        /**
         * Hands zstd the gathered input; sends its output whenever the output buffer is full, and
         * for END until the frame is complete.
         */
        private void compress(EndDirective directive) throws IOException {
            boolean ending = directive == EndDirective.END;
            input.flip();
            boolean complete = false;
            while (input.hasRemaining() || (ending && !complete)) {
                complete = context.compressDirectByteBufferStream(output, input, directive);
                if (ending || !output.hasRemaining()) {
                    send();
                }
            }
            input.clear();
        }

        private void send() throws IOException {
            output.flip();
            int n = output.remaining();
            output.get(transfer, 0, n);
            output.clear();
            if (n > 0) {
                sink.write(transfer, 0, n);
            }
        }

        @Override
        protected void release() {
            context.close();
        }
    }
}
