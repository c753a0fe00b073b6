package lab.responsetime.core.formats;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.zip.GZIPOutputStream;
import lab.responsetime.core.dataset.ObjectKind;

/**
 * Writes one answer's body: the format's encoder, then GZIP if asked, then the sink.
 *
 * <p>The first {@code headBytes} bytes of the body on the wire are held back. When the whole
 * body fits, the caller learns its exact length and the serialize and compress durations of
 * the whole body before the first byte leaves. A larger body streams: the caller is told the
 * durations so far when the head is full, that head leaves, and the rest follows as it is
 * produced, so the first bytes leave long before a large body is serialized.
 *
 * <p>Durations: <em>compress</em> is the time spent inside the GZIP stream (deflating and
 * handing on its output); <em>serialize</em> is the rest of the encoding time, i.e. the
 * format's own work. Time blocked on sending (after the head) is counted in neither.
 */
public final class BodyWriter {
    /** Output buffer of the GZIP stream; larger than its 512-byte default to avoid tiny writes. */
    private static final int GZIP_BUFFER_BYTES = 64 * 1024;

    private final int gzipLevel;
    private final int headBytes;
    private final LongSupplier nanoClock;
    /**
     * Each thread's head buffer, reused from body to body: a server thread writes one body at a
     * time, and allocating (and zeroing) the buffer per body costs more than encoding a small body.
     */
    private final ThreadLocal<byte[]> headBuffers;

    public BodyWriter(int gzipLevel, int headBytes) {
        this(gzipLevel, headBytes, System::nanoTime);
    }

    BodyWriter(int gzipLevel, int headBytes, LongSupplier nanoClock) {
        this.gzipLevel = gzipLevel;
        this.headBytes = headBytes;
        this.nanoClock = nanoClock;
        this.headBuffers = ThreadLocal.withInitial(() -> new byte[headBytes]);
    }

    public int headBytes() {
        return headBytes;
    }

    /** Told once, before the first byte goes to the sink. */
    @FunctionalInterface
    public interface HeadListener {
        /**
         * @param soFar the durations up to now; {@link Timings#complete()} says whether they
         *     cover the whole body, in which case {@link Timings#wireBytes()} is its length
         */
        void beforeFirstByte(Timings soFar) throws IOException;
    }

    /**
     * Durations and sizes of an encoding.
     *
     * @param complete whether they cover the whole body or only its head
     */
    public record Timings(long serializeNanos, long compressNanos, long rawBytes, long wireBytes,
                          boolean complete) {
    }

    /** Encodes {@code objects} into {@code sink}; returns the durations of the whole body. */
    public <T> Timings write(Format format, ObjectKind<T> kind, List<T> objects, Compression compression,
                             OutputStream sink, HeadListener listener) throws IOException {
        long started = nanoClock.getAsLong();
        HeadBuffer head = new HeadBuffer(sink);
        TimedStream wire = new TimedStream(head);
        GZIPOutputStream gzip = compression == Compression.GZIP ? new LeveledGzip(wire) : null;
        TimedStream top = gzip == null ? wire : new TimedStream(gzip);
        head.onCommit = complete -> listener.beforeFirstByte(timings(started, top, wire, complete));

        format.encoder().encode(kind, objects, top);
        if (gzip != null) {
            gzip.finish();
        }
        Timings whole = timings(started, top, wire, true);
        head.finish();
        return whole;
    }

    private Timings timings(long started, TimedStream top, TimedStream wire, boolean complete) {
        long now = nanoClock.getAsLong();
        long belowEncoder = top.nanosUntil(now);
        long belowCompressor = top == wire ? belowEncoder : wire.nanosUntil(now);
        return new Timings(now - started - belowEncoder, belowEncoder - belowCompressor,
                top.bytes, wire.bytes, complete);
    }

    /** GZIP at the configured deflate level. */
    private final class LeveledGzip extends GZIPOutputStream {
        LeveledGzip(OutputStream out) throws IOException {
            super(out, GZIP_BUFFER_BYTES);
            def.setLevel(gzipLevel);
        }
    }

    /** Counts the bytes and the time spent inside writes to the stream below. */
    private final class TimedStream extends OutputStream {
        private final OutputStream below;
        long bytes;
        private long nanos;
        private long enteredAt = -1;

        TimedStream(OutputStream below) {
            this.below = below;
        }

        /** Time spent below, including a write still in progress at {@code now}. */
        long nanosUntil(long now) {
            return enteredAt < 0 ? nanos : nanos + (now - enteredAt);
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
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

        /** Flushes reach the sink only once the head has left: until then there is nothing to flush. */
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
