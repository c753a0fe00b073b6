package lab.responsetime.core.formats;

import java.io.IOException;
import java.util.Map;

/**
 * Where a format's decoder hands the objects of a posted list of a brought dataset
 * (docs/datasets.md): each object whole, as plain values — a {@link Map} from field name to value
 * in the order read, a {@link java.util.List} for an array, a {@link String}, an {@link Integer},
 * {@link Long} or {@link java.math.BigInteger}, a {@link Double}, a {@link Boolean}, {@code null},
 * or an {@link Opaque} for what the format carries but no dataset holds (binary data). The sink
 * checks them against the dataset's schema and makes the refusals the decoder throws.
 */
public interface ObjectSink {
    /** The dataset's name, for messages: {@code the body must be a JSON array of logs}. */
    String plural();

    /** Begins the next object of the list; refuses one past the limit of objects. */
    void startObject() throws IOException;

    /** The object begun last, read whole. */
    void object(Map<String, Object> object) throws IOException;

    /** Objects read whole so far. */
    int count();

    /** An element of the list that is not an object; {@code got} says what it is. */
    IOException notAnObject(String got);

    /** A problem of the object being read as a whole ({@code logs[3] has …}). */
    IOException objectProblem(String what);

    /**
     * A problem of one value of the object being read, found by the decoder itself (a format that
     * carries values as text): {@code path} is the field's path ({@code user.geo.lat}), {@code
     * what} the rest ({@code must be a number, got "x"}).
     */
    IOException fieldProblem(String path, String what);

    /** A problem of the body or the list itself, said with where the decoder was. */
    IOException listProblem(String what);

    /** The body is not well-formed in its format, as its parser says ({@code detail}). */
    IOException malformed(String format, String detail);

    /** The list has no object. */
    IOException emptyList();

    /** A value that no dataset holds, as it is described in messages ({@code binary data}). */
    record Opaque(String description) {}
}
