package lab.responsetime.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import lab.responsetime.core.dataset.ObjectKind;
import lab.responsetime.core.formats.Format;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The client vectors ({@link ClientFixtures}, which the build writes before the tests) are written
 * whole: every kind in every format, with its expected objects and sort vector.
 */
class ClientFixturesTest {
    @Test
    void writesFormatAndSortVectors(@TempDir Path directory) throws Exception {
        ClientFixtures.write(directory);
        for (ObjectKind<?> kind : ObjectKind.ALL) {
            for (Format format : Format.values()) {
                assertThat(directory.resolve(kind.plural() + "." + format.parameter()))
                        .isNotEmptyFile();
            }
            assertThat(directory.resolve(kind.plural() + ".expected.json")).isNotEmptyFile();
            assertThat(directory.resolve("sort-" + kind.plural() + ".json")).isNotEmptyFile();
        }
        for (Format format : Format.values()) {
            assertThat(directory.resolve("brought." + format.parameter())).isNotEmptyFile();
        }
        for (String name :
                new String[] {
                    "brought.given.json", "brought.description.json", "sort-brought.json"
                }) {
            assertThat(directory.resolve(name)).isNotEmptyFile();
        }
        assertThat(Files.list(directory))
                .hasSize(
                        (ObjectKind.ALL.size() + 1) * Format.values().length
                                + ObjectKind.ALL.size() * 2
                                + 3);
    }
}
