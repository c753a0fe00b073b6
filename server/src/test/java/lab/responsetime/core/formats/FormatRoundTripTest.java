package lab.responsetime.core.formats;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import lab.responsetime.api.Book;
import lab.responsetime.api.Video;
import lab.responsetime.api.proto.BookList;
import lab.responsetime.api.proto.VideoList;
import lab.responsetime.core.compression.Compression;
import lab.responsetime.core.compression.CompressionLevels;
import lab.responsetime.core.computation.Cancellation;
import lab.responsetime.core.computation.CancelledException;
import lab.responsetime.core.dataset.DatasetGenerator;
import lab.responsetime.core.dataset.ObjectKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every format, uncompressed and with every compression at its lowest, default and highest level,
 * decodes back to exactly the generated objects; each compressed body, decompressed by a decoder
 * that is not the compressing library, is byte for byte the uncompressed body.
 */
class FormatRoundTripTest {
    private static final long SEED = 20170601L;
    private static final List<Book> BOOKS = DatasetGenerator.books(SEED, 3_000);
    private static final List<Video> VIDEOS = DatasetGenerator.videos(SEED, 3_000);

    /**
     * Heavy levels (seconds per 3,000 Books) run on fewer objects: still several of the
     * compressor's input pushes.
     */
    private static final int HEAVY_LEVEL_COUNT = 300;

    static Stream<Arguments> cells() {
        List<Arguments> cells = new ArrayList<>();
        for (Format format : Format.values()) {
            for (CompressionLevels.Case compression : CompressionLevels.all()) {
                int most = compression.isHeavy() ? HEAVY_LEVEL_COUNT : 3_000;
                for (int count : new int[] {0, 1, 10, most}) {
                    cells.add(Arguments.of(format, compression, count));
                }
            }
        }
        return cells.stream();
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("cells")
    void roundTripsBooks(Format format, CompressionLevels.Case compression, int count)
            throws Exception {
        assertRoundTrip(format, compression, ObjectKind.BOOKS, BOOKS.subList(0, count));
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("cells")
    void roundTripsVideos(Format format, CompressionLevels.Case compression, int count)
            throws Exception {
        assertRoundTrip(format, compression, ObjectKind.VIDEOS, VIDEOS.subList(0, count));
    }

    /** Values at the edges of every rule, and characters that need escaping in JSON and XML. */
    @ParameterizedTest
    @EnumSource(Format.class)
    void roundTripsEdgeValues(Format format) throws Exception {
        List<Book> books =
                List.of(
                        new Book("", "", "", "", 0, 0f, "DIGITAL", false),
                        new Book(
                                "<&>\"'",
                                "a\\b",
                                "line\nbreak\ttab",
                                "ü€𝄞",
                                1000,
                                2000f,
                                "PAPERBACK",
                                true),
                        new Book("x", "y", "z", "w", 7, 0.01f, "HARDCOVER", true),
                        new Book("x", "y", "z", "w", 7, 1999.99f, "HARDCOVER", true),
                        new Book("x", "y", "z", "w", 7, 123.45f, "HARDCOVER", true));
        List<Video> videos =
                List.of(
                        new Video("", "", "ogg", 256, 144, 10, 0, false),
                        new Video("u", "t", "webm", 3840, 2160, 3600, 10_000_000, true));
        for (CompressionLevels.Case compression : CompressionLevels.all()) {
            assertRoundTrip(format, compression, ObjectKind.BOOKS, books);
            assertRoundTrip(format, compression, ObjectKind.VIDEOS, videos);
        }
    }

    @Test
    void protobufBodyIsByteForByteTheGeneratedListMessage() throws Exception {
        BookList.Builder books = BookList.newBuilder();
        BOOKS.forEach(
                b -> books.addBooks((lab.responsetime.api.proto.Book) ObjectKind.BOOKS.toProto(b)));
        assertThat(encode(Format.PROTOBUF, ObjectKind.BOOKS, BOOKS))
                .isEqualTo(books.build().toByteArray());
        VideoList.Builder videos = VideoList.newBuilder();
        VIDEOS.forEach(
                v ->
                        videos.addVideos(
                                (lab.responsetime.api.proto.Video) ObjectKind.VIDEOS.toProto(v)));
        assertThat(encode(Format.PROTOBUF, ObjectKind.VIDEOS, VIDEOS))
                .isEqualTo(videos.build().toByteArray());
    }

    @Test
    void pricesAreWrittenAsTheirTwoDecimalValue() throws Exception {
        String json =
                new String(
                        encode(
                                Format.JSON,
                                ObjectKind.BOOKS,
                                List.of(
                                        new Book(
                                                "t", "a", "d", "i", 1, 1234.57f, "DIGITAL",
                                                true))));
        assertThat(json).contains("\"price\":1234.57,");
    }

    @ParameterizedTest
    @EnumSource(value = Compression.class, names = "NONE", mode = EnumSource.Mode.EXCLUDE)
    void smallBodyIsCompleteBeforeItsFirstByteLeaves(Compression compression) throws Exception {
        BodyWriter writer = new BodyWriter(1 << 20);
        RecordingSink sink = new RecordingSink();
        List<BodyWriter.Timings> told = new ArrayList<>();
        writer.write(
                Format.JSON.codec(),
                ObjectKind.BOOKS,
                BOOKS.subList(0, 10),
                compression,
                compression.levels().orElseThrow().defaultLevel(),
                new Cancellation(),
                sink,
                soFar -> {
                    assertThat(sink.size()).as("nothing sent before the listener").isZero();
                    told.add(soFar);
                });
        assertThat(told).hasSize(1);
        assertThat(told.get(0).complete()).isTrue();
        assertThat(told.get(0).wireBytes()).isEqualTo(sink.size());
        assertThat(told.get(0).rawBytes()).isGreaterThan(told.get(0).wireBytes());
    }

    @ParameterizedTest
    @EnumSource(Compression.class)
    void largeBodyStreamsAfterItsHead(Compression compression) throws Exception {
        int headBytes = 4096;
        BodyWriter writer = new BodyWriter(headBytes);
        RecordingSink sink = new RecordingSink();
        List<BodyWriter.Timings> told = new ArrayList<>();
        int level = compression.levels().map(Compression.Levels::defaultLevel).orElse(0);
        BodyWriter.Timings whole =
                writer.write(
                        Format.XML.codec(),
                        ObjectKind.BOOKS,
                        BOOKS,
                        compression,
                        level,
                        new Cancellation(),
                        sink,
                        soFar -> {
                            assertThat(sink.size()).isZero();
                            told.add(soFar);
                        });
        assertThat(told).hasSize(1);
        assertThat(told.get(0).complete()).isFalse();
        assertThat(told.get(0).wireBytes()).isLessThanOrEqualTo(headBytes);
        assertThat(sink.writes).as("the body leaves in many writes, not one").isGreaterThan(3);
        assertThat(whole.complete()).isTrue();
        assertThat(whole.wireBytes()).isEqualTo(sink.size());
        assertThat(whole.serializeNanos()).isGreaterThanOrEqualTo(told.get(0).serializeNanos());
        assertThat(
                        IndependentDecoders.decode(
                                Format.XML,
                                ObjectKind.BOOKS,
                                IndependentDecoders.decompress(
                                        compression, sink.bytes.toByteArray())))
                .isEqualTo(BOOKS);
    }

    /**
     * Each format's uncompressed body of each kind and count, and whether an independent decoder
     * reads it back to exactly the objects (an AssertionError, or null): made once, as every
     * compression of that body is checked against the same uncompressed bytes.
     */
    private static final Map<String, byte[]> PLAIN_BODIES = new ConcurrentHashMap<>();

    private static final Map<String, Object> PLAIN_DECODES = new ConcurrentHashMap<>();

    private static <T> void assertRoundTrip(
            Format format, CompressionLevels.Case compression, ObjectKind<T> kind, List<T> objects)
            throws Exception {
        String key = format + "/" + kind + "/" + objects.size();
        byte[] expected = PLAIN_BODIES.get(key);
        if (expected == null) {
            expected = encode(format, kind, objects);
            PLAIN_BODIES.put(key, expected);
        }
        byte[] body = encode(format, compression.compression(), compression.level(), kind, objects);
        byte[] plain = IndependentDecoders.decompress(compression.compression(), body);
        assertThat(plain).as("decompressed, the uncompressed body").isEqualTo(expected);
        Object decoded = PLAIN_DECODES.get(key);
        if (decoded == null) {
            try {
                assertThat(IndependentDecoders.decode(format, kind, plain))
                        .containsExactlyElementsOf(objects);
                decoded = Boolean.TRUE;
            } catch (AssertionError e) {
                decoded = e;
            }
            PLAIN_DECODES.put(key, decoded);
        }
        if (decoded instanceof AssertionError e) {
            throw e;
        }
    }

    static <T> byte[] encode(Format format, ObjectKind<T> kind, List<T> objects)
            throws IOException, CancelledException {
        return encode(format, Compression.NONE, 0, kind, objects);
    }

    static <T> byte[] encode(
            Format format, Compression compression, int level, ObjectKind<T> kind, List<T> objects)
            throws IOException, CancelledException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new BodyWriter(8192)
                .write(
                        format.codec(),
                        kind,
                        objects,
                        compression,
                        level,
                        new Cancellation(),
                        out,
                        soFar -> {});
        return out.toByteArray();
    }

    private static final class RecordingSink extends OutputStream {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int writes;

        int size() {
            return bytes.size();
        }

        @Override
        public void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            bytes.write(b, off, len);
            writes++;
        }

        @Override
        public void close() {
            throw new AssertionError("the body writer closed the response's stream");
        }
    }
}
