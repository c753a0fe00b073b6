package lab.responsetime.core.dataset;

/**
 * A brought dataset the lab cannot take, with its first problem: where it is (the object's index
 * from 0 and the field's path, when the problem is in one) and why.
 */
public final class DatasetRefusedException extends Exception {
    private final Integer object;
    private final String field;

    /** A problem of the whole dataset (not JSON, empty, too large). */
    public DatasetRefusedException(String message) {
        this(message, null, null);
    }

    public DatasetRefusedException(String message, Integer object, String field) {
        super(message);
        this.object = object;
        this.field = field;
    }

    /** The index of the object with the problem (from 0), or null. */
    public Integer object() {
        return object;
    }

    /** The path of the field with the problem ({@code user.name}, {@code tags[]}), or null. */
    public String field() {
        return field;
    }
}
