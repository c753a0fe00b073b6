package lab.responsetime.core.formats;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.function.Function;
import java.util.function.LongSupplier;
import lab.responsetime.core.compression.CompressingStream;
import lab.responsetime.core.compression.Compression;
import lab.responsetime.core.compression.CompressionCodec;
import lab.responsetime.core.computation.Cancellation;
import lab.responsetime.core.computation.CancelledException;
import lab.responsetime.core.dataset.ObjectKind;

/**
 * Writes one answer's body: the format's encoder, then the compressor if one is asked for, then the
 * sink.
 *
 * <p>The first {@code headBytes} bytes of the body on the wire are held back. When the whole body
 * fits, the caller learns its exact length and the serialize and compress durations of the whole
 * body before the first byte leaves. A larger body streams: the caller is told the durations so far
 * when the head is full, that head leaves, and the rest follows as it is produced, so the first
 * bytes leave long before a large body is serialized.
 *
 * <p>Durations: <em>compress</em> is all the time spent in the compressor — opening it, compressing
 * what the encoder writes, and finishing (the last block and the stream's end) — and handing its
 * output on; <em>serialize</em> is the rest of the encoding time, i.e. the format's own work. Time
 * blocked on sending (after the head) is counted in neither.
 *
 * <p>The work stops when its {@link Cancellation} fires (nobody waits for the body any more), at
 * the encoder's next write: also while the head is still held back, when no write to the connection
 * could notice a client that left. The compressor's native memory is released in every case, and a
 * body that failed or was cancelled is not finished.
 */
public final class BodyWriter {
    private final int headBytes;
    private final LongSupplier nanoClock;
    private final Function<Compression, CompressionCodec> codecs;

    /**
     * Each thread's head buffer, reused from body to body: a server thread writes one body at a
     * time, and allocating (and zeroing) the buffer per body costs more than encoding a small body.
     */
    private final ThreadLocal<byte[]> headBuffers;

    public BodyWriter(int headBytes) {
        this(headBytes, System::nanoTime, Compression::codec);
    }

    /**
     * @param codecs the codec of each compression but NONE (the tests time decorated ones)
     */
    BodyWriter(
            int headBytes, LongSupplier nanoClock, Function<Compression, CompressionCodec> codecs) {
        this.headBytes = headBytes;
        this.nanoClock = nanoClock;
        this.codecs = codecs;
        this.headBuffers = ThreadLocal.withInitial(() -> new byte[headBytes]);
    }

    public int headBytes() {
        return headBytes;
    }

    /** Told once, before the first byte goes to the sink. */
    @FunctionalInterface
    public interface HeadListener {
        /**
         * @param soFar the durations up to now; {@link Timings#complete()} says whether they cover
         *     the whole body, in which case {@link Timings#wireBytes()} is its length
         */
        void beforeFirstByte(Timings soFar) throws IOException;
    }

    /**
     * Durations and sizes of an encoding.
     *
     * @param complete whether they cover the whole body or only its head
     */
    public record Timings(
            long serializeNanos,
            long compressNanos,
            long rawBytes,
            long wireBytes,
            boolean complete) {}

    /**
     * Encodes {@code objects} with {@code encoder}, compressed as {@code compression} at {@code
     * level}, into {@code sink}; returns the durations of the whole body.
     *
     * @throws CancelledException when {@code cancellation} fired before the body was done
     */
    public <T> Timings write(
            Encoder encoder,
            ObjectKind<T> kind,
            List<T> objects,
            Compression compression,
            int level,
            Cancellation cancellation,
            OutputStream sink,
            HeadListener listener)
            throws IOException, CancelledException {
        long started = nanoClock.getAsLong();
        HeadBuffer head = new HeadBuffer(sink);
        TimedStream wire = new TimedStream(head, cancellation);
        TimedStream top =
                compression == Compression.NONE ? wire : new TimedStream(null, cancellation);
        head.onCommit = complete -> listener.beforeFirstByte(timings(started, top, wire, complete));
        try {
            if (compression == Compression.NONE) {
                encoder.encode(kind, objects, top);
            } else {
                CompressionCodec codec = codecs.apply(compression);
                try (CompressingStream compressing = top.time(() -> codec.compress(wire, level))) {
                    top.below = compressing;
                    encoder.encode(kind, objects, top);
                    top.time(
                            () -> {
                                compressing.finish();
                                compressing.close();
                                return null;
                            });
                }
            }
        } catch (IOException | RuntimeException e) {
            cancellation.throwIfCancelled();
            throw e;
        }
        Timings whole = timings(started, top, wire, true);
        head.finish();
        return whole;
    }

    private Timings timings(long started, TimedStream top, TimedStream wire, boolean complete) {
        long now = nanoClock.getAsLong();
        long belowEncoder = top.nanosUntil(now);
        long belowCompressor = top == wire ? belowEncoder : wire.nanosUntil(now);
        return new Timings(
                now - started - belowEncoder,
                belowEncoder - belowCompressor,
                top.bytes,
                wire.bytes,
                complete);
    }

    /**
     * Counts the bytes and the time spent inside writes to the stream below (and inside other work
     * done there, see {@link #time}); refuses writes once the work is cancelled.
     */
    private final class TimedStream extends OutputStream {
        /** The stream below; for the compressor's input, set once the compressor is open. */
        OutputStream below;

        private final Cancellation cancellation;
        long bytes;
        private long nanos;
        private long enteredAt = -1;

        TimedStream(OutputStream below, Cancellation cancellation) {
            this.below = below;
            this.cancellation = cancellation;
        }

        /** Time spent below, including a write still in progress at {@code now}. */
        long nanosUntil(long now) {
            return enteredAt < 0 ? nanos : nanos + (now - enteredAt);
        }

        /** Runs {@code work} and counts its time as time below. */
        <R> R time(Work<R> work) throws IOException {
            enteredAt = nanoClock.getAsLong();
            try {
                return work.run();
            } finally {
                nanos += nanoClock.getAsLong() - enteredAt;
                enteredAt = -1;
            }
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (cancellation.isCancelled()) {
                throw new IOException("stopped: " + cancellation.reason());
            }
            enteredAt = nanoClock.getAsLong();
            try {
                below.write(b, off, len);
            } finally {
                nanos += nanoClock.getAsLong() - enteredAt;
                enteredAt = -1;
                bytes += len;
            }
        }

        @Override
        public void flush() throws IOException {
            below.flush();
        }
    }

    /** Work below a {@link TimedStream}. */
    @FunctionalInterface
    private interface Work<R> {
        R run() throws IOException;
    }

    /** Holds back the head of the body until it is full or the body ends. */
    private final class HeadBuffer extends OutputStream {
        private final OutputStream sink;
        private final byte[] head = headBuffers.get();
        private int held;
        private boolean committed;
        CommitAction onCommit;

        HeadBuffer(OutputStream sink) {
            this.sink = sink;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (committed) {
                sink.write(b, off, len);
            } else if (held + len <= head.length) {
                System.arraycopy(b, off, head, held, len);
                held += len;
            } else {
                commit(false);
                sink.write(b, off, len);
            }
        }

        /**
         * Flushes reach the sink only once the head has left: until then there is nothing to flush.
         */
        @Override
        public void flush() throws IOException {
            if (committed) {
                sink.flush();
            }
        }

        void finish() throws IOException {
            if (!committed) {
                commit(true);
            }
        }

        private void commit(boolean complete) throws IOException {
            committed = true;
            onCommit.run(complete);
            sink.write(head, 0, held);
        }
    }

    @FunctionalInterface
    private interface CommitAction {
        void run(boolean complete) throws IOException;
    }
}
