package lab.responsetime.core.formats;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import lab.responsetime.api.Book;
import lab.responsetime.api.Video;
import lab.responsetime.api.proto.BookList;
import lab.responsetime.api.proto.VideoList;
import lab.responsetime.core.dataset.DatasetGenerator;
import lab.responsetime.core.dataset.ObjectKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/** Every format, with and without GZIP, decodes back to exactly the generated objects. */
class FormatRoundTripTest {
    private static final long SEED = 20170601L;
    private static final List<Book> BOOKS = DatasetGenerator.books(SEED, 3_000);
    private static final List<Video> VIDEOS = DatasetGenerator.videos(SEED, 3_000);

    static Stream<Arguments> cells() {
        List<Arguments> cells = new ArrayList<>();
        for (Format format : Format.values()) {
            for (Compression compression : Compression.values()) {
                for (int count : new int[] {0, 1, 10, 3_000}) {
                    cells.add(Arguments.of(format, compression, count));
                }
            }
        }
        return cells.stream();
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("cells")
    void roundTripsBooks(Format format, Compression compression, int count) throws Exception {
        assertRoundTrip(format, compression, ObjectKind.BOOKS, BOOKS.subList(0, count));
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("cells")
    void roundTripsVideos(Format format, Compression compression, int count) throws Exception {
        assertRoundTrip(format, compression, ObjectKind.VIDEOS, VIDEOS.subList(0, count));
    }

    /** Values at the edges of every rule, and characters that need escaping in JSON and XML. */
    @ParameterizedTest
    @EnumSource(Format.class)
    void roundTripsEdgeValues(Format format) throws Exception {
        List<Book> books = List.of(
                new Book("", "", "", "", 0, 0f, "DIGITAL", false),
                new Book("<&>\"'", "a\\b", "line\nbreak\ttab", "ü€𝄞", 1000, 2000f, "PAPERBACK", true),
                new Book("x", "y", "z", "w", 7, 0.01f, "HARDCOVER", true),
                new Book("x", "y", "z", "w", 7, 1999.99f, "HARDCOVER", true),
                new Book("x", "y", "z", "w", 7, 123.45f, "HARDCOVER", true));
        assertRoundTrip(format, Compression.NONE, ObjectKind.BOOKS, books);
        List<Video> videos = List.of(new Video("", "", "ogg", 256, 144, 10, 0, false),
                new Video("u", "t", "webm", 3840, 2160, 3600, 10_000_000, true));
        assertRoundTrip(format, Compression.GZIP, ObjectKind.VIDEOS, videos);
    }

    @Test
    void protobufBodyIsByteForByteTheGeneratedListMessage() throws IOException {
        BookList.Builder books = BookList.newBuilder();
        BOOKS.forEach(b -> books.addBooks((lab.responsetime.api.proto.Book) ObjectKind.BOOKS.toProto(b)));
        assertThat(encode(Format.PROTOBUF, Compression.NONE, ObjectKind.BOOKS, BOOKS))
                .isEqualTo(books.build().toByteArray());
        VideoList.Builder videos = VideoList.newBuilder();
        VIDEOS.forEach(v -> videos.addVideos((lab.responsetime.api.proto.Video) ObjectKind.VIDEOS.toProto(v)));
        assertThat(encode(Format.PROTOBUF, Compression.NONE, ObjectKind.VIDEOS, VIDEOS))
                .isEqualTo(videos.build().toByteArray());
    }

    @Test
    void pricesAreWrittenAsTheirTwoDecimalValue() throws IOException {
        String json = new String(encode(Format.JSON, Compression.NONE, ObjectKind.BOOKS,
                List.of(new Book("t", "a", "d", "i", 1, 1234.57f, "DIGITAL", true))));
        assertThat(json).contains("\"price\":1234.57,");
    }

    @Test
    void smallBodyIsCompleteBeforeItsFirstByteLeaves() throws IOException {
        BodyWriter writer = new BodyWriter(6, 1 << 20);
        RecordingSink sink = new RecordingSink();
        List<BodyWriter.Timings> told = new ArrayList<>();
        writer.write(Format.JSON, ObjectKind.BOOKS, BOOKS.subList(0, 10), Compression.GZIP, sink, soFar -> {
            assertThat(sink.size()).as("nothing sent before the listener").isZero();
            told.add(soFar);
        });
        assertThat(told).hasSize(1);
        assertThat(told.get(0).complete()).isTrue();
        assertThat(told.get(0).wireBytes()).isEqualTo(sink.size());
        assertThat(told.get(0).rawBytes()).isGreaterThan(told.get(0).wireBytes());
    }

    @Test
    void largeBodyStreamsAfterItsHead() throws IOException {
        int headBytes = 4096;
        BodyWriter writer = new BodyWriter(6, headBytes);
        RecordingSink sink = new RecordingSink();
        List<BodyWriter.Timings> told = new ArrayList<>();
        BodyWriter.Timings whole = writer.write(Format.XML, ObjectKind.BOOKS, BOOKS, Compression.NONE, sink,
                soFar -> {
                    assertThat(sink.size()).isZero();
                    told.add(soFar);
                });
        assertThat(told).hasSize(1);
        assertThat(told.get(0).complete()).isFalse();
        assertThat(told.get(0).wireBytes()).isLessThanOrEqualTo(headBytes);
        assertThat(sink.writes).as("the body leaves in many writes, not one").isGreaterThan(10);
        assertThat(whole.complete()).isTrue();
        assertThat(whole.wireBytes()).isEqualTo(sink.size());
        assertThat(whole.serializeNanos()).isGreaterThanOrEqualTo(told.get(0).serializeNanos());
    }

    private static <T> void assertRoundTrip(Format format, Compression compression, ObjectKind<T> kind,
                                            List<T> objects) throws Exception {
        byte[] body = encode(format, compression, kind, objects);
        byte[] plain = compression == Compression.GZIP ? IndependentDecoders.gunzip(body) : body;
        assertThat(IndependentDecoders.decode(format, kind, plain)).containsExactlyElementsOf(objects);
    }

    static <T> byte[] encode(Format format, Compression compression, ObjectKind<T> kind, List<T> objects)
            throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new BodyWriter(6, 8192).write(format, kind, objects, compression, out, soFar -> { });
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
    }
}
