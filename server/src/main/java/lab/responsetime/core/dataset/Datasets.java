package lab.responsetime.core.dataset;

import java.util.Optional;
import lab.responsetime.api.Book;
import lab.responsetime.api.Video;

/**
 * The datasets the server serves: the two generated ones, the settings they were made with, and
 * those users brought ({@link BroughtDatasets}).
 */
public final class Datasets {
    private final long seed;
    private final int size;
    private final Dataset<Book> books;
    private final Dataset<Video> videos;
    private final BroughtDatasets brought;

    public Datasets(long seed, int size, Dataset<Book> books, Dataset<Video> videos) {
        this(seed, size, books, videos, new BroughtDatasets(null));
    }

    public Datasets(
            long seed,
            int size,
            Dataset<Book> books,
            Dataset<Video> videos,
            BroughtDatasets brought) {
        this.seed = seed;
        this.size = size;
        this.books = books;
        this.videos = videos;
        this.brought = brought;
    }

    /** Empty datasets, to be filled by a {@link DatasetLoader}; none brought. */
    public static Datasets loading(long seed, int size) {
        return loading(seed, size, new BroughtDatasets(null));
    }

    /** Empty generated datasets, to be filled by a {@link DatasetLoader}, and {@code brought}. */
    public static Datasets loading(long seed, int size, BroughtDatasets brought) {
        return new Datasets(
                seed,
                size,
                new Dataset<>(ObjectKind.BOOKS),
                new Dataset<>(ObjectKind.VIDEOS),
                brought);
    }

    /** The datasets users brought. */
    public BroughtDatasets brought() {
        return brought;
    }

    /** The kind named {@code name} in URLs: a generated one's or a brought dataset's. */
    public Optional<ObjectKind<?>> kindNamed(String name) {
        for (ObjectKind<?> kind : ObjectKind.ALL) {
            if (kind.plural().equals(name)) {
                return Optional.of(kind);
            }
        }
        return brought.get(name).map(BroughtDatasets.Entry::kind);
    }

    /**
     * The largest count a request for {@code kind} may ask for: the generated datasets' size, or a
     * brought dataset's number of objects.
     */
    public int sizeOf(ObjectKind<?> kind) {
        if (kind.schema().isEmpty()) {
            return size;
        }
        return brought.get(kind.plural())
                .filter(entry -> entry.kind() == kind)
                .map(BroughtDatasets.Entry::count)
                .orElse(size);
    }

    public long seed() {
        return seed;
    }

    public int size() {
        return size;
    }

    /**
     * The dataset of {@code kind}. For a brought dataset replaced or removed since {@code kind} was
     * looked up, a failed one that says so.
     */
    @SuppressWarnings("unchecked")
    public <T> Dataset<T> get(ObjectKind<T> kind) {
        if (kind == ObjectKind.BOOKS) {
            return (Dataset<T>) books;
        }
        if (kind == ObjectKind.VIDEOS) {
            return (Dataset<T>) videos;
        }
        Optional<BroughtDatasets.Entry> entry =
                brought.get(kind.plural()).filter(e -> e.kind() == kind);
        if (entry.isPresent()) {
            return (Dataset<T>) entry.get().dataset();
        }
        Dataset<T> gone = new Dataset<>(kind);
        gone.failed("replaced or removed meanwhile");
        return gone;
    }

    public boolean allReady() {
        return books.state() == Dataset.State.READY && videos.state() == Dataset.State.READY;
    }
}
