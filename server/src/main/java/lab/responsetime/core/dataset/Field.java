package lab.responsetime.core.dataset;

/**
 * One row of an object kind's field table: the field's name (the same in every format) and its
 * rule, which says its type, what it allows in words, how the generator draws it and how the
 * collector checks it.
 */
public record Field(String name, FieldRule rule) {
    public FieldType type() {
        return rule.type();
    }
}
