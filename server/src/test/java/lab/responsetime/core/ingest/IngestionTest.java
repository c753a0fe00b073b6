package lab.responsetime.core.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import lab.responsetime.core.compression.Compression;
import lab.responsetime.core.dataset.ObjectKind;
import lab.responsetime.core.formats.Format;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The collector end to end without HTTP: every format under every Content-Encoding reads back, each
 * limit stops the body where it is passed (a decompression bomb stops inflating, in little time and
 * memory), and a refused body is read to its end where that is cheap.
 */
class IngestionTest {
    private static final IngestLimits LIMITS = new IngestLimits(16L << 20, 4L << 20, 100_000);

    /** CPU time a refused bomb may take: inflating 4 MiB is milliseconds; a gigabyte is seconds. */
    private static final Duration BOMB_CPU = Duration.ofMillis(500);

    /** Heap a refused bomb may allocate: buffers, never the gigabytes it expands to. */
    private static final long BOMB_HEAP_BYTES = 16L << 20;

    private static final int ZSTD_INPUT_BYTES = 128 << 10;

    private final Ingestion ingestion = new Ingestion(LIMITS);

    static Stream<Arguments> cells() {
        List<Arguments> cells = new ArrayList<>();
        for (ObjectKind<?> kind : ObjectKind.ALL) {
            for (Format format : Format.values()) {
                for (Compression encoding : Compression.values()) {
                    for (int count : new int[] {10, 1000}) {
                        cells.add(Arguments.of(kind, format, encoding, count));
                    }
                }
            }
        }
        return cells.stream();
    }

    @ParameterizedTest(name = "{0} {1} {2} {3}")
    @MethodSource("cells")
    void readsEveryGetBodyUnderEveryEncoding(
            ObjectKind<?> kind, Format format, Compression encoding, int count) throws Exception {
        byte[] plain = IngestBodies.get(kind, count, format, Compression.NONE);
        byte[] body = IngestBodies.compress(encoding, plain);
        Ingestion.Summary summary = ingest(kind, format, encoding, body);
        assertThat(summary.objects()).isEqualTo(count);
        assertThat(summary.format()).isEqualTo(format);
        assertThat(summary.wireBytes()).isEqualTo(body.length);
        assertThat(summary.decodedBytes()).isEqualTo(plain.length);
        assertThat(summary.receiveNanos()).isNotNegative();
        assertThat(summary.decodeNanos()).isPositive();
        assertThat(summary.inflateNanos() > 0).isEqualTo(encoding != Compression.NONE);
        assertThat(ingestion.running()).isZero();
    }

    /** With a clock that ticks once per reading, the three parts add up to the whole. */
    @Test
    void receiveInflateAndDecodeShareTheWholeTime() throws Exception {
        long[] now = {0};
        List<Long> readings = new ArrayList<>();
        Ingestion ticking =
                new Ingestion(
                        LIMITS,
                        () -> {
                            readings.add(now[0]);
                            return now[0]++;
                        });
        byte[] body = IngestBodies.get(ObjectKind.VIDEOS, 100, Format.CBOR, Compression.ZSTD);
        Ingestion.Summary summary =
                ticking.ingest(
                        ObjectKind.VIDEOS,
                        Format.CBOR,
                        Compression.ZSTD,
                        new ByteArrayInputStream(body));
        assertThat(summary.receiveNanos() + summary.inflateNanos() + summary.decodeNanos())
                .isEqualTo(readings.get(readings.size() - 1) - readings.get(0));
        assertThat(summary.receiveNanos()).isPositive();
        assertThat(summary.inflateNanos()).isPositive();
    }

    @ParameterizedTest
    @EnumSource(value = Compression.class, names = "NONE", mode = EnumSource.Mode.EXCLUDE)
    void aDecompressionBombStopsInflatingAtTheLimit(Compression encoding) throws Exception {
        byte[] bomb = Bombs.of(encoding);
        assertThat(Bombs.expandsTo(encoding))
                .as("expands far past the limit")
                .isGreaterThan(250 * LIMITS.maxDecodedBytes());
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().getId();
        long cpuBefore = threads.getCurrentThreadCpuTime();
        long heapBefore = threads.getThreadAllocatedBytes(thread);
        Counting source = new Counting(new ByteArrayInputStream(bomb));

        assertThatThrownBy(() -> ingestion.ingest(ObjectKind.BOOKS, Format.JSON, encoding, source))
                .isInstanceOf(BodyTooLargeException.class)
                .hasMessage(
                        "the body is larger than the limit of 4194304 bytes once decompressed"
                                + " (ingest.maxDecodedBytes)")
                .satisfies(
                        e ->
                                assertThat(((BodyRefusedException) e).bodyReadToEnd())
                                        .as("the rest was read, not inflated")
                                        .isTrue());
        assertThat(Duration.ofNanos(threads.getCurrentThreadCpuTime() - cpuBefore))
                .isLessThan(BOMB_CPU);
        assertThat(threads.getThreadAllocatedBytes(thread) - heapBefore)
                .isLessThan(BOMB_HEAP_BYTES);
        assertThat(source.count).isEqualTo(bomb.length);
        assertThat(ingestion.running()).isZero();
    }

    /** Where the compressed stream is longer than one read, the decoder stops reading it too. */
    @ParameterizedTest
    @EnumSource(
            value = Compression.class,
            names = {"GZIP", "DEFLATE", "ZSTD"})
    void aBombIsReadOnlyAsFarAsItsLimit(Compression encoding) throws Exception {
        byte[] bomb = Bombs.of(encoding);
        Counting source = new Counting(new ByteArrayInputStream(bomb));
        InputStream inflating = encoding.decompressing(source);
        BoundedInputStream decoded =
                new BoundedInputStream(
                        inflating,
                        LIMITS.maxDecodedBytes(),
                        "too large",
                        problem -> Ingestion.corrupt(encoding, problem),
                        System::nanoTime);
        byte[] buffer = new byte[8192];
        assertThatThrownBy(
                        () -> {
                            while (decoded.read(buffer, 0, buffer.length) >= 0) {
                                // reads until refused
                            }
                        })
                .isInstanceOf(BodyTooLargeException.class);
        inflating.close();
        assertThat(decoded.count()).isEqualTo(LIMITS.maxDecodedBytes() + 1);
        // zstd reads its input 128 KiB at a time; its whole bomb is a few hundred KiB
        assertThat(source.count)
                .as("compressed bytes read of " + bomb.length)
                .isLessThan(Math.max(bomb.length / 20, ZSTD_INPUT_BYTES * 2));
    }

    @Test
    void aBodyPastTheWireLimitIsReadNoFurther() throws Exception {
        byte[] body = IngestBodies.get(ObjectKind.BOOKS, 1000, Format.JSON, Compression.NONE);
        Ingestion small = new Ingestion(new IngestLimits(100_000, 1L << 20, 1000));
        Counting source = new Counting(new ByteArrayInputStream(body));
        assertThatThrownBy(
                        () -> small.ingest(ObjectKind.BOOKS, Format.JSON, Compression.NONE, source))
                .isInstanceOf(BodyTooLargeException.class)
                .hasMessage(
                        "the body is larger than the limit of 100000 bytes (ingest.maxBodyBytes)")
                .satisfies(e -> assertThat(((BodyRefusedException) e).bodyReadToEnd()).isFalse());
        assertThat(source.count).isEqualTo(100_001);
    }

    @Test
    void moreObjectsThanTheLimitAreTooLarge() {
        Ingestion few = new Ingestion(new IngestLimits(1L << 20, 1L << 20, 9));
        assertThatThrownBy(
                        () ->
                                few.ingest(
                                        ObjectKind.VIDEOS,
                                        Format.MSGPACK,
                                        Compression.GZIP,
                                        new ByteArrayInputStream(
                                                IngestBodies.get(
                                                        ObjectKind.VIDEOS,
                                                        10,
                                                        Format.MSGPACK,
                                                        Compression.GZIP))))
                .isInstanceOf(BodyTooLargeException.class)
                .hasMessage("the list has more than 9 videos, the limit (ingest.maxObjects)")
                .satisfies(e -> assertThat(((BodyRefusedException) e).bodyReadToEnd()).isTrue());
    }

    @Test
    void anInvalidBodyIsReadToItsEndSoTheClientGetsTheAnswer() {
        byte[] body = IngestBodies.get(ObjectKind.BOOKS, 1000, Format.PROTOBUF, Compression.NONE);
        body[5] = 0x7f; // inside the first object
        Counting source = new Counting(new ByteArrayInputStream(body));
        assertThatThrownBy(
                        () ->
                                ingestion.ingest(
                                        ObjectKind.BOOKS,
                                        Format.PROTOBUF,
                                        Compression.NONE,
                                        source))
                .isInstanceOf(InvalidBodyException.class)
                .satisfies(e -> assertThat(((InvalidBodyException) e).object()).hasValue(0))
                .satisfies(e -> assertThat(((BodyRefusedException) e).bodyReadToEnd()).isTrue());
        assertThat(source.count).isEqualTo(body.length);
    }

    @Test
    void emptyBodiesAreSaidToBeEmpty() {
        for (Format format : Format.posted()) {
            assertThatThrownBy(
                            () ->
                                    ingestion.ingest(
                                            ObjectKind.BOOKS,
                                            format,
                                            Compression.NONE,
                                            new ByteArrayInputStream(new byte[0])))
                    .as(format.mediaType())
                    .isInstanceOf(InvalidBodyException.class)
                    .hasMessage("the body is empty; send a list of at least one book");
        }
        for (Compression encoding : Compression.values()) {
            assertThatThrownBy(
                            () ->
                                    ingestion.ingest(
                                            ObjectKind.BOOKS,
                                            Format.JSON,
                                            encoding,
                                            new ByteArrayInputStream(new byte[0])))
                    .as(encoding.contentCoding())
                    .hasMessage("the body is empty; send a list of at least one book");
            if (encoding != Compression.NONE) {
                assertThatThrownBy(
                                () ->
                                        ingestion.ingest(
                                                ObjectKind.BOOKS,
                                                Format.JSON,
                                                encoding,
                                                new ByteArrayInputStream(
                                                        IngestBodies.compress(
                                                                encoding, new byte[0]))))
                        .as(encoding.contentCoding())
                        .hasMessage(
                                "the body is empty once decompressed; send a list of at least one"
                                        + " book");
            }
        }
    }

    @ParameterizedTest
    @EnumSource(value = Compression.class, names = "NONE", mode = EnumSource.Mode.EXCLUDE)
    void corruptCompressedDataIsInvalid(Compression encoding) {
        byte[] body = IngestBodies.get(ObjectKind.VIDEOS, 100, Format.JSON, encoding);
        byte[] truncated = Arrays.copyOf(body, body.length / 2);
        assertThatThrownBy(() -> ingest(ObjectKind.VIDEOS, Format.JSON, encoding, truncated))
                .isInstanceOf(InvalidBodyException.class)
                .hasMessageStartingWith(
                        "the body is not valid "
                                + encoding.contentCoding()
                                + " data (Content-Encoding: "
                                + encoding.contentCoding()
                                + "): ");
        byte[] plain = IngestBodies.get(ObjectKind.VIDEOS, 100, Format.JSON, Compression.NONE);
        assertThatThrownBy(() -> ingest(ObjectKind.VIDEOS, Format.JSON, encoding, plain))
                .isInstanceOf(InvalidBodyException.class)
                .hasMessageStartingWith(
                        "the body is not valid " + encoding.contentCoding() + " data");
    }

    @ParameterizedTest
    @EnumSource(
            value = Compression.class,
            names = {"DEFLATE", "ZSTD"})
    void bytesAfterTheCompressedStreamAreRefused(Compression encoding) {
        byte[] body = IngestBodies.get(ObjectKind.VIDEOS, 10, Format.JSON, encoding);
        assertThatThrownBy(
                        () ->
                                ingest(
                                        ObjectKind.VIDEOS,
                                        Format.JSON,
                                        encoding,
                                        ListDecodersTest.concat(body, new byte[] {1, 2, 3})))
                .isInstanceOf(InvalidBodyException.class)
                .hasMessageContaining(encoding.contentCoding());
    }

    @Test
    void aZstdFrameWithAWindowAbove8MiBIsRefused() throws Exception {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        try (com.github.luben.zstd.ZstdOutputStreamNoFinalizer zstd =
                new com.github.luben.zstd.ZstdOutputStreamNoFinalizer(out)) {
            zstd.setLevel(3);
            zstd.setLong(25);
            zstd.write(IngestBodies.get(ObjectKind.VIDEOS, 10, Format.JSON, Compression.NONE));
        }
        assertThatThrownBy(
                        () ->
                                ingest(
                                        ObjectKind.VIDEOS,
                                        Format.JSON,
                                        Compression.ZSTD,
                                        out.toByteArray()))
                .isInstanceOf(InvalidBodyException.class)
                .hasMessageStartingWith(
                        "the body is not valid zstd data (Content-Encoding: zstd): Frame requires"
                                + " too much memory");
    }

    @Test
    void aConnectionThatFailsIsNotReceived() {
        byte[] body = IngestBodies.get(ObjectKind.BOOKS, 100, Format.JSON, Compression.GZIP);
        for (IOException failure :
                List.of(new IOException("Early EOF"), new SocketTimeoutException("idle"))) {
            InputStream failing =
                    new FilterInputStream(new ByteArrayInputStream(body, 0, body.length / 2)) {
                        @Override
                        public int read(byte[] b, int off, int len) throws IOException {
                            int n = super.read(b, off, len);
                            if (n < 0) {
                                throw failure;
                            }
                            return n;
                        }
                    };
            assertThatThrownBy(
                            () ->
                                    ingestion.ingest(
                                            ObjectKind.BOOKS,
                                            Format.JSON,
                                            Compression.GZIP,
                                            failing))
                    .isInstanceOf(BodyNotReceivedException.class)
                    .hasMessageStartingWith("the body could not be read to its end: ")
                    .satisfies(
                            e ->
                                    assertThat(((BodyNotReceivedException) e).timedOut())
                                            .isEqualTo(failure instanceof SocketTimeoutException))
                    .satisfies(
                            e -> assertThat(((BodyRefusedException) e).bodyReadToEnd()).isFalse());
        }
        assertThat(ingestion.running()).isZero();
    }

    private Ingestion.Summary ingest(
            ObjectKind<?> kind, Format format, Compression encoding, byte[] body)
            throws BodyRefusedException {
        return ingestion.ingest(
                kind,
                Format.forContentType(format.mediaType()).orElseThrow(),
                encoding,
                new ByteArrayInputStream(body));
    }

    /** Counts the bytes read from it. */
    private static final class Counting extends FilterInputStream {
        long count;

        Counting(InputStream in) {
            super(in);
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            count += Math.max(n, 0);
            return n;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            count += b < 0 ? 0 : 1;
            return b;
        }
    }
}
