package lab.responsetime.core.dataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The datasets of the {@code dataset.bring} setting, brought when the server starts. */
class DatasetLoaderTest {
    @TempDir Path directory;

    /**
     * Where the generated datasets' files go: not the temporary directory, which the loader's
     * background threads may still be writing to when the test ends.
     */
    private static final Path GENERATED = Path.of("target/loader-test-data");

    @Test
    void bringsEachFileUnderItsName() throws Exception {
        Path file = Files.writeString(directory.resolve("logs.json"), "[{\"a\":1},{\"a\":2}]");
        Datasets datasets =
                Datasets.loading(1, 10, new BroughtDatasets(directory.resolve("datasets")));
        DatasetLoader loader = new DatasetLoader(datasets, GENERATED, Map.of("logs", file));

        loader.start();
        loader.stop();

        assertThat(datasets.brought().get("logs").orElseThrow().count()).isEqualTo(2);
        assertThat(directory.resolve("datasets/logs.jsonl")).exists();
    }

    @Test
    void aFileThatIsRefusedStopsTheStartNamingTheProblem() throws Exception {
        Path file = Files.writeString(directory.resolve("bad.json"), "[{\"a\":1},{\"a\":\"x\"}]");
        Datasets datasets = Datasets.loading(1, 10, new BroughtDatasets(null));

        DatasetLoader loader = new DatasetLoader(datasets, GENERATED, Map.of("bad", file));
        try {
            assertThatThrownBy(loader::start)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("dataset.bring: bad (" + file + ") refused")
                    .hasMessageContaining("object 1, field \"a\"");
            assertThatThrownBy(
                            () ->
                                    new DatasetLoader(
                                                    datasets,
                                                    GENERATED,
                                                    Map.of("gone", directory.resolve("none.json")))
                                            .start())
                    .hasMessageContaining("dataset.bring: gone")
                    .hasMessageContaining("cannot be read");
        } finally {
            loader.stop();
        }
        assertThat(datasets.brought().get("bad")).isEmpty();
    }
}
