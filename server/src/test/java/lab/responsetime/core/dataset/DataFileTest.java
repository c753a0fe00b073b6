package lab.responsetime.core.dataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import lab.responsetime.api.Book;
import lab.responsetime.api.Video;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DataFileTest {
    private static final long SEED = 99;
    private static final int SIZE = 2_000;

    @TempDir Path directory;

    @Test
    void roundTripsBothKinds() throws IOException {
        List<Book> books = DatasetGenerator.books(SEED, SIZE);
        List<Video> videos = DatasetGenerator.videos(SEED, SIZE);
        DataFile.write(directory.resolve("b.bin"), ObjectKind.BOOKS, SEED, books);
        DataFile.write(directory.resolve("v.bin"), ObjectKind.VIDEOS, SEED, videos);
        assertThat(DataFile.read(directory.resolve("b.bin"), ObjectKind.BOOKS, SEED, SIZE))
                .isEqualTo(books);
        assertThat(DataFile.read(directory.resolve("v.bin"), ObjectKind.VIDEOS, SEED, SIZE))
                .isEqualTo(videos);
        assertThat(directory.toFile().list()).containsExactlyInAnyOrder("b.bin", "v.bin");
    }

    @Test
    void refusesMissingAndForeignFiles() throws IOException {
        assertRefused(directory.resolve("none.bin"), "does not exist");
        Path foreign = directory.resolve("foreign.bin");
        Files.write(foreign, new byte[200]);
        assertRefused(foreign, "bad magic");
        Files.write(foreign, new byte[5]);
        assertRefused(foreign, "truncated");
    }

    @Test
    void refusesMismatchingSettings() throws IOException {
        Path file = written();
        assertThatThrownBy(() -> DataFile.read(file, ObjectKind.BOOKS, SEED + 1, SIZE))
                .hasMessageContaining("seed");
        assertThatThrownBy(() -> DataFile.read(file, ObjectKind.BOOKS, SEED, SIZE + 1))
                .hasMessageContaining("size");
        assertThatThrownBy(() -> DataFile.read(file, ObjectKind.VIDEOS, SEED, SIZE))
                .hasMessageContaining("kind");
    }

    @Test
    void refusesTruncatedExtendedAndDamagedFiles() throws IOException {
        Path file = written();
        long length = Files.size(file);
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(length - 10);
        }
        assertRefused(file, "truncated");

        file = written();
        Files.write(file, new byte[] {1, 2, 3}, java.nio.file.StandardOpenOption.APPEND);
        assertRefused(file, "extended");

        Path damaged = written();
        try (RandomAccessFile raf = new RandomAccessFile(damaged.toFile(), "rw")) {
            raf.seek(length / 2);
            int b = raf.read();
            raf.seek(length / 2);
            raf.write(b ^ 0x01);
        }
        assertThatThrownBy(() -> DataFile.read(damaged, ObjectKind.BOOKS, SEED, SIZE))
                .isInstanceOf(DataFile.DataFileException.class);
    }

    @Test
    void loaderRegeneratesADamagedFileAndLoadsTheGoodOne() throws IOException {
        Datasets datasets = Datasets.loading(SEED, SIZE);
        DatasetLoader loader = new DatasetLoader(datasets, directory);
        Path file = DataFile.path(directory, ObjectKind.BOOKS);
        Files.write(file, new byte[1000]);

        loader.loadOrGenerate(datasets.get(ObjectKind.BOOKS));
        assertThat(datasets.get(ObjectKind.BOOKS).status()).contains("generated");
        assertThat(DataFile.read(file, ObjectKind.BOOKS, SEED, SIZE))
                .isEqualTo(DatasetGenerator.books(SEED, SIZE));

        Datasets again = Datasets.loading(SEED, SIZE);
        new DatasetLoader(again, directory).loadOrGenerate(again.get(ObjectKind.BOOKS));
        assertThat(again.get(ObjectKind.BOOKS).status()).contains("loaded");
        assertThat(again.get(ObjectKind.BOOKS).objects())
                .contains(DatasetGenerator.books(SEED, SIZE));
    }

    private Path written() throws IOException {
        Path file = directory.resolve("books.bin");
        DataFile.write(file, ObjectKind.BOOKS, SEED, DatasetGenerator.books(SEED, SIZE));
        return file;
    }

    private static void assertRefused(Path file, String reason) {
        assertThatThrownBy(() -> DataFile.read(file, ObjectKind.BOOKS, SEED, SIZE))
                .isInstanceOf(DataFile.DataFileException.class)
                .hasMessageContaining(reason);
    }
}
