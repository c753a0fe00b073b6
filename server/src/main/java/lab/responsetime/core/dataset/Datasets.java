package lab.responsetime.core.dataset;

import lab.responsetime.api.Book;
import lab.responsetime.api.Video;

/** The two datasets the server serves, and the settings they were made with. */
public final class Datasets {
    private final long seed;
    private final int size;
    private final Dataset<Book> books;
    private final Dataset<Video> videos;

    public Datasets(long seed, int size, Dataset<Book> books, Dataset<Video> videos) {
        this.seed = seed;
        this.size = size;
        this.books = books;
        this.videos = videos;
    }

    /** Empty datasets, to be filled by a {@link DatasetLoader}. */
    public static Datasets loading(long seed, int size) {
        return new Datasets(
                seed, size, new Dataset<>(ObjectKind.BOOKS), new Dataset<>(ObjectKind.VIDEOS));
    }

    public long seed() {
        return seed;
    }

    public int size() {
        return size;
    }

    @SuppressWarnings("unchecked")
    public <T> Dataset<T> get(ObjectKind<T> kind) {
        return (Dataset<T>) (kind == ObjectKind.BOOKS ? books : videos);
    }

    public boolean allReady() {
        return books.state() == Dataset.State.READY && videos.state() == Dataset.State.READY;
    }
}
