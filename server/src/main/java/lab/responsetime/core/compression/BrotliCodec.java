package lab.responsetime.core.compression;

import com.aayushatharva.brotli4j.Brotli4jLoader;
import com.aayushatharva.brotli4j.decoder.BrotliInputStream;
import com.aayushatharva.brotli4j.encoder.Encoder;
import com.aayushatharva.brotli4j.encoder.EncoderJNI;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import lab.responsetime.core.MavenVersion;

/**
 * {@link Compression#BR}: Brotli (RFC 7932) with brotli4j's JNI binding of Google's encoder, at the
 * encoder's default window (lgwin 22, 4 MiB) and generic mode.
 *
 * <p>It drives brotli4j's encoder handle ({@link EncoderJNI.Wrapper}) itself, as brotli4j's own
 * {@code Encoder} does, rather than through {@code BrotliOutputStream}, because that stream's only
 * way to free the native encoder is {@code close()}, which first compresses everything pending
 * (about a second at level 11) and closes the sink: abandoned work would be finished for nobody.
 *
 * <p>It decompresses with brotli4j's binding of Google's decoder ({@link BrotliInputStream}), whose
 * memory is bounded by the stream's window (at most 16 MiB).
 */
final class BrotliCodec implements CompressionCodec {
    /** Input gathered before each push into the native encoder. */
    private static final int INPUT_BYTES = 64 * 1024;

    /** Largest write of compressed bytes to the sink. */
    private static final int OUTPUT_BYTES = 64 * 1024;

    /** Compressed bytes the decompressor reads at once. */
    private static final int READ_BUFFER_BYTES = 16 * 1024;

    @Override
    public InputStream decompress(InputStream body) throws IOException {
        Brotli4jLoader.ensureAvailability();
        return new BrotliInputStream(body, READ_BUFFER_BYTES);
    }

    @Override
    public CompressingStream compress(OutputStream sink, int level) throws IOException {
        Brotli4jLoader.ensureAvailability();
        return new BrotliStream(
                new EncoderJNI.Wrapper(INPUT_BYTES, level, -1, Encoder.Mode.GENERIC), sink);
    }

    @Override
    public String library() {
        return "brotli4j";
    }

    @Override
    public String version() {
        return MavenVersion.of("com.aayushatharva.brotli4j/brotli4j");
    }

    /** Feeds the native encoder its input buffer and hands its output to the sink. */
    private static final class BrotliStream extends GatheringStream {
        private final EncoderJNI.Wrapper encoder;
        private final OutputStream sink;
        private final byte[] output = new byte[OUTPUT_BYTES];

        BrotliStream(EncoderJNI.Wrapper encoder, OutputStream sink) {
            super(encoder.getInputBuffer());
            this.encoder = encoder;
            this.sink = sink;
        }

        @Override
        protected void compress(boolean end) throws IOException {
            push(end ? EncoderJNI.Operation.FINISH : EncoderJNI.Operation.PROCESS);
            if (end && !encoder.isFinished()) {
                throw new IOException("brotli encoder did not finish its stream");
            }
        }

        /**
         * Pushes the gathered input with {@code operation}, then takes all output the encoder has.
         */
        private void push(EncoderJNI.Operation operation) throws IOException {
            int gathered = input.position();
            boolean pushed = false;
            while (true) {
                if (!encoder.isSuccess()) {
                    throw new IOException("brotli encoding failed");
                } else if (encoder.hasMoreOutput()) {
                    send(encoder.pull());
                } else if (encoder.hasRemainingInput()) {
                    encoder.push(operation, 0);
                } else if (!pushed) {
                    encoder.push(operation, gathered);
                    pushed = true;
                } else {
                    input.clear();
                    return;
                }
            }
        }

        private void send(ByteBuffer compressed) throws IOException {
            while (compressed.hasRemaining()) {
                int n = Math.min(compressed.remaining(), output.length);
                compressed.get(output, 0, n);
                sink.write(output, 0, n);
            }
        }

        @Override
        protected void release() {
            encoder.destroy();
        }
    }
}
