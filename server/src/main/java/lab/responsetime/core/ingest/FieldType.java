package lab.responsetime.core.ingest;

/** What a field holds, as every format can carry it (SPEC §1's types). */
public enum FieldType {
    /** Text. */
    STRING,
    /** A whole number (an int of SPEC §1). */
    INTEGER,
    /** A number with at most two decimals (a float of SPEC §1). */
    DECIMAL,
    /** true or false. */
    BOOLEAN
}
