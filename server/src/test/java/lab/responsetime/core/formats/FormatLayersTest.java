package lab.responsetime.core.formats;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import lab.responsetime.api.Book;
import lab.responsetime.core.compression.CompressingStream;
import lab.responsetime.core.compression.Compression;
import lab.responsetime.core.dataset.DatasetGenerator;
import lab.responsetime.core.dataset.ObjectKind;
import lab.responsetime.core.ingest.ObjectValidator;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every layer has every format and every compression: a new constant that misses one fails here,
 * naming the layer. A format needs its codec (encoder and list decoder, and the libraries it
 * names), an independent decoder in the tests' {@link IndependentDecoders}, and the client's
 * decoder module {@code client/codecs/<name>.js}; a compression its codec (compressor and
 * decompressor) and an independent decompressor.
 */
class FormatLayersTest {
    /** The client's decoder modules, from the server module's directory (where tests run). */
    private static final Path CLIENT_CODECS = Path.of("..", "client", "codecs");

    private static final List<Book> BOOKS = DatasetGenerator.books(20170601L, 10);

    @ParameterizedTest
    @EnumSource(Format.class)
    void theCodecWritesWhatItsListDecoderReads(Format format) throws Exception {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        format.codec().encode(ObjectKind.BOOKS, BOOKS, body);
        ObjectValidator validator = ObjectValidator.of(ObjectKind.BOOKS, BOOKS.size());
        Format read =
                format.codec().decode(new ByteArrayInputStream(body.toByteArray()), validator);
        assertThat(read).isEqualTo(format);
        assertThat(validator.count()).isEqualTo(BOOKS.size());
        assertThat(format.codec().libraries()).as("the libraries /api/info names").isNotEmpty();
    }

    @ParameterizedTest
    @EnumSource(Format.class)
    void theCollectorTakesTheFormatByItsMediaType(Format format) {
        assertThat(Format.forContentType(format.mediaType()))
                .as("a Content-Type of %s", format.mediaType())
                .isPresent();
    }

    @ParameterizedTest
    @EnumSource(Format.class)
    void theTestsHaveAnIndependentDecoder(Format format) {
        assertThat(IndependentDecoders.decodes(format))
                .as("IndependentDecoders has a decoder for %s", format)
                .isTrue();
    }

    @ParameterizedTest
    @EnumSource(Format.class)
    void theClientHasADecoderModule(Format format) {
        assertThat(CLIENT_CODECS.resolve(format.parameter() + ".js"))
                .as("the client's decoder module for %s", format)
                .isRegularFile();
    }

    @ParameterizedTest
    @EnumSource(value = Compression.class, names = "NONE", mode = EnumSource.Mode.EXCLUDE)
    void theCodecDecompressesWhatItCompresses(Compression compression) throws Exception {
        byte[] plain = "[{\"a\":1}]".repeat(1000).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        ByteArrayOutputStream compressed = new ByteArrayOutputStream();
        try (CompressingStream stream =
                compression
                        .codec()
                        .compress(compressed, compression.levels().orElseThrow().defaultLevel())) {
            stream.write(plain, 0, plain.length);
            stream.finish();
        }
        try (InputStream in =
                compression
                        .codec()
                        .decompress(new ByteArrayInputStream(compressed.toByteArray()))) {
            assertThat(in.readAllBytes()).isEqualTo(plain);
        }
        assertThat(compression.codec().library()).isNotBlank();
    }

    @ParameterizedTest
    @EnumSource(Compression.class)
    void theCollectorTakesTheCompressionByItsContentEncoding(Compression compression) {
        assertThat(Compression.forContentEncoding(compression.contentCoding()))
                .contains(compression);
    }

    @ParameterizedTest
    @EnumSource(Compression.class)
    void theTestsHaveAnIndependentDecompressor(Compression compression) {
        assertThat(IndependentDecoders.decompresses(compression))
                .as("IndependentDecoders has a decompressor for %s", compression)
                .isTrue();
    }
}
