package lab.responsetime.core.catalogue;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import lab.responsetime.core.formats.Format;
import org.junit.jupiter.api.Test;

/**
 * The Node tools' copy of the catalogue is the server's: regenerate it with {@code npm run
 * catalogue}.
 */
class CatalogueFileTest {
    private static final Path FILE = Path.of("..", "common", "catalogue-data.js");

    @Test
    void theCommittedCopyIsTheServers() throws Exception {
        assertThat(Files.readString(FILE))
                .as(
                        "common/catalogue-data.js is out of date with the server's enums: run `npm"
                                + " run catalogue`")
                .isEqualTo(CatalogueFile.text());
    }

    @Test
    @SuppressWarnings("unchecked")
    void everyCompressionNamesItsContentEncodingAndLevels() throws Exception {
        List<Map<String, Object>> compressions =
                (List<Map<String, Object>>) Catalogue.describe().get("compressions");
        assertThat(new ObjectMapper().writeValueAsString(compressions))
                .isEqualTo(
                        "["
                                + String.join(
                                        ",",
                                        "{\"name\":\"none\",\"label\":\"none\",\"encoding\":null,"
                                                + "\"levels\":null}",
                                        "{\"name\":\"gzip\",\"label\":\"GZIP\",\"encoding\":\"gzip\","
                                            + "\"levels\":{\"min\":1,\"max\":9,\"default\":6}}",
                                        "{\"name\":\"deflate\",\"label\":\"deflate (zlib)\","
                                                + "\"encoding\":\"deflate\","
                                                + "\"levels\":{\"min\":1,\"max\":9,\"default\":6}}",
                                        "{\"name\":\"br\",\"label\":\"Brotli\",\"encoding\":\"br\","
                                            + "\"levels\":{\"min\":0,\"max\":11,\"default\":6}}",
                                        "{\"name\":\"zstd\",\"label\":\"zstd\",\"encoding\":\"zstd\","
                                            + "\"levels\":{\"min\":1,\"max\":19,\"default\":3}}")
                                + "]");
    }

    @Test
    @SuppressWarnings("unchecked")
    void everyFormatHasADefaultDecoderAndUniqueDecoderNames() {
        List<Map<String, Object>> formats =
                (List<Map<String, Object>>) Catalogue.describe().get("formats");
        assertThat(formats)
                .extracting(f -> f.get("name"))
                .doesNotHaveDuplicates()
                .hasSize(Format.values().length);
        for (Map<String, Object> format : formats) {
            List<Map<String, Object>> decoders = (List<Map<String, Object>>) format.get("decoders");
            assertThat(decoders)
                    .isNotEmpty()
                    .extracting(d -> d.get("name"))
                    .doesNotHaveDuplicates()
                    .contains(format.get("default_decoder"));
        }
    }
}
