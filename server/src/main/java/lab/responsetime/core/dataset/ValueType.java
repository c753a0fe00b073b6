package lab.responsetime.core.dataset;

/**
 * What one value of a brought dataset's field holds (docs/datasets.md#schema-inference), by the
 * name its schema uses: the Protobuf scalar type it maps to, or {@code object} for a nested object.
 */
public enum ValueType {
    STRING("string"),
    /** A whole number every value of which fits 32 bits. */
    INT32("int32"),
    /** A whole number some value of which needs 64 bits. */
    INT64("int64"),
    /** A floating-point number (some value has a fraction or an exponent). */
    DOUBLE("double"),
    BOOLEAN("bool"),
    /** A nested object, with its own schema. */
    OBJECT("object");

    private final String schemaName;

    ValueType(String schemaName) {
        this.schemaName = schemaName;
    }

    /** The type's name in a schema's field list and, for scalars, in the {@code .proto}. */
    public String schemaName() {
        return schemaName;
    }
}
