package lab.responsetime.core.dataset;

import java.util.List;
import java.util.Optional;

/**
 * One kind's dataset as the server holds it: loading until its objects are resident, then ready (or
 * failed, with the reason). Safe to read from any thread.
 */
public final class Dataset<T> {
    public enum State {
        LOADING,
        READY,
        FAILED
    }

    private final ObjectKind<T> kind;
    private volatile List<T> objects;
    private volatile State state = State.LOADING;
    private volatile String status = "waiting to load";

    public Dataset(ObjectKind<T> kind) {
        this.kind = kind;
    }

    /** A dataset that is ready from the start, for tests and tools. */
    public static <T> Dataset<T> of(ObjectKind<T> kind, List<T> objects) {
        Dataset<T> dataset = new Dataset<>(kind);
        dataset.ready(objects, "given");
        return dataset;
    }

    public ObjectKind<T> kind() {
        return kind;
    }

    public State state() {
        return state;
    }

    /** What the dataset is doing or why it failed, in words. */
    public String status() {
        return status;
    }

    /** The objects, once ready; an unmodifiable list. */
    public Optional<List<T>> objects() {
        return Optional.ofNullable(objects);
    }

    void loading(String status) {
        this.status = status;
    }

    void ready(List<T> objects, String source) {
        this.objects = List.copyOf(objects);
        this.status = objects.size() + " " + kind.plural() + " " + source;
        this.state = State.READY;
    }

    void failed(String reason) {
        this.status = reason;
        this.state = State.FAILED;
    }
}
