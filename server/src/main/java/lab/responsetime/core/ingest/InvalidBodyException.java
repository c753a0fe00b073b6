package lab.responsetime.core.ingest;

import java.util.Optional;
import java.util.OptionalInt;

/**
 * The body is malformed, or an object in it breaks docs/method.md#datasets's rules. The message
 * names the first problem and what is allowed; {@link #object()} and {@link #field()} name where it
 * is, when the problem is inside an object of the list.
 */
public final class InvalidBodyException extends BodyRefusedException {
    /** No object: the problem is the body or the list itself. */
    static final int NO_OBJECT = -1;

    private final int object;
    private final String field;

    InvalidBodyException(String message) {
        this(message, NO_OBJECT, null);
    }

    InvalidBodyException(String message, int object, String field) {
        super(message);
        this.object = object;
        this.field = field;
    }

    /** The index in the list (from 0) of the object with the problem. */
    public OptionalInt object() {
        return object == NO_OBJECT ? OptionalInt.empty() : OptionalInt.of(object);
    }

    /** The field with the problem. */
    public Optional<String> field() {
        return Optional.ofNullable(field);
    }
}
