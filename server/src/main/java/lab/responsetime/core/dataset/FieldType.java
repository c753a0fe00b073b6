package lab.responsetime.core.dataset;

/** What a field holds, as every format can carry it (docs/method.md#datasets's types). */
public enum FieldType {
    /** Text. */
    STRING("string"),
    /** A whole number (an int of docs/method.md#datasets). */
    INTEGER("int"),
    /** A number with at most two decimals (a float of docs/method.md#datasets). */
    DECIMAL("float"),
    /** true or false. */
    BOOLEAN("bool");

    private final String catalogueName;

    FieldType(String catalogueName) {
        this.catalogueName = catalogueName;
    }

    /** The type's name in the catalogue's field lists: {@code string}, {@code int}, … */
    public String catalogueName() {
        return catalogueName;
    }
}
