package lab.responsetime.core.formats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import lab.responsetime.api.Book;
import lab.responsetime.core.compression.CompressingStream;
import lab.responsetime.core.compression.Compression;
import lab.responsetime.core.compression.CompressionCodec;
import lab.responsetime.core.computation.Cancellation;
import lab.responsetime.core.computation.CancelledException;
import lab.responsetime.core.dataset.DatasetGenerator;
import lab.responsetime.core.dataset.ObjectKind;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What {@link BodyWriter} charges to serialize and to compress, on a fake clock that only the test
 * moves: the encoder's writes, the compressor's work (opening, each write, the last block,
 * releasing) and the sink's writes each advance it by their own known amount, with the real encoder
 * and the real compressor doing the work. And how the writer stops: a cancelled body releases the
 * compressor without finishing it, a failed one releases it too, and the sink is never closed.
 */
class BodyWriterTest {
    private static final long ENCODER_WRITE_NANOS = 1_000;
    private static final long OPEN_NANOS = 20_000;
    private static final long COMPRESSOR_WRITE_NANOS = 300_000;
    private static final long FINISH_NANOS = 7_000_000;
    private static final long RELEASE_NANOS = 50_000;

    /** Blocked on a slow connection: counted in neither duration. */
    private static final long SINK_WRITE_NANOS = 900_000_000;

    private static final List<Book> BOOKS = DatasetGenerator.books(20170601L, 1_000);

    private final AtomicLong clock = new AtomicLong();
    private final Counted counted = new Counted();

    @ParameterizedTest
    @EnumSource(Compression.class)
    void compressIsAllTheCompressorsWorkItsLastBlockIncludedAndSerializeTheEncodersOnly(
            Compression compression) throws Exception {
        for (int headBytes : new int[] {1 << 22, 4096}) {
            counted.reset();
            ClockedSink sink = new ClockedSink();
            List<BodyWriter.Timings> told = new ArrayList<>();
            BodyWriter.Timings whole =
                    writer(headBytes)
                            .write(
                                    encoder(),
                                    ObjectKind.BOOKS,
                                    BOOKS,
                                    compression,
                                    defaultLevel(compression),
                                    new Cancellation(),
                                    sink,
                                    told::add);

            assertThat(whole.serializeNanos())
                    .isEqualTo(counted.encoderWrites * ENCODER_WRITE_NANOS);
            long compressorWork =
                    compression == Compression.NONE
                            ? 0
                            : OPEN_NANOS
                                    + counted.compressorWrites * COMPRESSOR_WRITE_NANOS
                                    + FINISH_NANOS
                                    + RELEASE_NANOS;
            assertThat(whole.compressNanos())
                    .as("compress, head " + headBytes)
                    .isEqualTo(compressorWork);
            assertThat(counted.encoderWrites).isPositive();
            assertThat(counted.finished).isEqualTo(compression != Compression.NONE);
            assertThat(counted.released).isEqualTo(compression != Compression.NONE);
            assertThat(sink.writes).isPositive();
            assertThat(told).hasSize(1);
            if (told.get(0).complete()) {
                assertThat(told.get(0)).isEqualTo(whole);
            }
            assertThat(
                            IndependentDecoders.decode(
                                    Format.JSON,
                                    ObjectKind.BOOKS,
                                    IndependentDecoders.decompress(
                                            compression, sink.bytes.toByteArray())))
                    .isEqualTo(BOOKS);
        }
    }

    @ParameterizedTest
    @EnumSource(Compression.class)
    void aCancelledBodyStopsAtTheEncodersNextWriteSendsNothingAndReleasesTheCompressorUnfinished(
            Compression compression) {
        Cancellation cancellation = new Cancellation();
        counted.cancelAfterWrites(3, cancellation);
        ClockedSink sink = new ClockedSink();
        List<BodyWriter.Timings> told = new ArrayList<>();

        assertThatThrownBy(
                        () ->
                                writer(1 << 22)
                                        .write(
                                                encoder(),
                                                ObjectKind.BOOKS,
                                                BOOKS,
                                                compression,
                                                defaultLevel(compression),
                                                cancellation,
                                                sink,
                                                told::add))
                .isInstanceOf(CancelledException.class)
                .hasMessage("the client left");
        assertThat(counted.encoderWrites).as("the fourth write was refused").isEqualTo(4);
        assertThat(counted.compressorWrites).isLessThanOrEqualTo(3);
        assertThat(told).as("no header was written").isEmpty();
        assertThat(sink.writes).as("nothing was sent").isZero();
        assertThat(counted.finished).as("the rest is not compressed for nobody").isFalse();
        assertThat(counted.released).isEqualTo(compression != Compression.NONE);
    }

    @ParameterizedTest
    @EnumSource(value = Compression.class, names = "NONE", mode = EnumSource.Mode.EXCLUDE)
    void aFailingSinkReachesTheCallerAndTheCompressorIsReleased(Compression compression) {
        ClockedSink broken =
                new ClockedSink() {
                    @Override
                    public void write(byte[] b, int off, int len) throws IOException {
                        throw new IOException("connection reset");
                    }
                };
        assertThatThrownBy(
                        () ->
                                writer(1024)
                                        .write(
                                                encoder(),
                                                ObjectKind.BOOKS,
                                                BOOKS,
                                                compression,
                                                defaultLevel(compression),
                                                new Cancellation(),
                                                broken,
                                                soFar -> {}))
                .isInstanceOf(IOException.class)
                .hasMessage("connection reset");
        assertThat(counted.released).isTrue();
    }

    private BodyWriter writer(int headBytes) {
        return new BodyWriter(
                headBytes, clock::get, compression -> new ClockedCompressor(compression.codec()));
    }

    private static int defaultLevel(Compression compression) {
        return compression.levels().map(Compression.Levels::defaultLevel).orElse(0);
    }

    /** The real JSON encoder, whose every write to the body costs ENCODER_WRITE_NANOS. */
    private Encoder encoder() {
        return new Encoder() {
            @Override
            public <T> void encode(ObjectKind<T> kind, List<T> objects, OutputStream out)
                    throws IOException {
                Format.JSON
                        .codec()
                        .encode(
                                kind,
                                objects,
                                new OutputStream() {
                                    @Override
                                    public void write(int b) throws IOException {
                                        write(new byte[] {(byte) b}, 0, 1);
                                    }

                                    @Override
                                    public void write(byte[] b, int off, int len)
                                            throws IOException {
                                        clock.addAndGet(ENCODER_WRITE_NANOS);
                                        counted.encoderWrites++;
                                        if (counted.encoderWrites > counted.cancelAfter) {
                                            counted.cancellation.cancel("the client left");
                                        }
                                        out.write(b, off, len);
                                    }

                                    @Override
                                    public void flush() throws IOException {
                                        out.flush();
                                    }
                                });
            }
        };
    }

    /** What the encoder and the compressor did. */
    private static final class Counted {
        int encoderWrites;
        int compressorWrites;
        boolean finished;
        boolean released;
        int cancelAfter = Integer.MAX_VALUE;
        Cancellation cancellation;

        void reset() {
            encoderWrites = 0;
            compressorWrites = 0;
            finished = false;
            released = false;
        }

        void cancelAfterWrites(int writes, Cancellation toCancel) {
            cancelAfter = writes;
            cancellation = toCancel;
        }
    }

    /**
     * The real compressor, whose opening, writes, last block and release each cost their known
     * time.
     */
    private final class ClockedCompressor implements CompressionCodec {
        private final CompressionCodec real;

        ClockedCompressor(CompressionCodec real) {
            this.real = real;
        }

        @Override
        public InputStream decompress(InputStream body) throws IOException {
            return real.decompress(body);
        }

        @Override
        public CompressingStream compress(OutputStream sink, int level) throws IOException {
            clock.addAndGet(OPEN_NANOS);
            CompressingStream stream = real.compress(sink, level);
            return new CompressingStream() {
                @Override
                public void write(byte[] b, int off, int len) throws IOException {
                    clock.addAndGet(COMPRESSOR_WRITE_NANOS);
                    counted.compressorWrites++;
                    stream.write(b, off, len);
                }

                @Override
                public void finish() throws IOException {
                    clock.addAndGet(FINISH_NANOS);
                    counted.finished = true;
                    stream.finish();
                }

                @Override
                protected void release() {
                    clock.addAndGet(RELEASE_NANOS);
                    counted.released = true;
                    stream.close();
                }
            };
        }

        @Override
        public String library() {
            return real.library();
        }

        @Override
        public String version() {
            return real.version();
        }
    }

    /** Collects the body; each write blocks for SINK_WRITE_NANOS; must never be closed. */
    private class ClockedSink extends OutputStream {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int writes;

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            clock.addAndGet(SINK_WRITE_NANOS);
            writes++;
            bytes.write(b, off, len);
        }

        @Override
        public void close() {
            throw new AssertionError("the body writer closed the response's stream");
        }
    }
}
