package lab.responsetime.core.ingest;

import java.util.List;
import lab.responsetime.core.dataset.Field;
import lab.responsetime.core.dataset.FieldRule;
import lab.responsetime.core.dataset.FieldType;
import lab.responsetime.core.dataset.ObjectKind;

/**
 * Checks the objects of one body field by field, as a decoder reads them, against one object kind's
 * field table ({@link ObjectKind#fields()}): every field present once and no other, every value of
 * its field's type and within its {@link FieldRule} — the rules the generator draws from, so that
 * generated data always passes — and a paired field ({@link FieldRule.PairedInteger}) the pair of
 * its partner. One instance per body: it holds the state of the object being read and counts the
 * objects.
 *
 * <p>A decoder calls {@link #startObject()}, then for each field {@link #field} and the value's
 * check ({@link #string}, {@link #integer}, {@link #decimal}, {@link #bool}, or {@link #text} for a
 * format that carries every value as text), then {@link #endObject()}. Each check throws an {@link
 * InvalidBodyException} whose message names the object by its index in the list (from 0), the field
 * and what is allowed: {@code books[3].price must be a number from 0 to 2000 with at most 2
 * decimals, got 12.345}.
 */
public final class ObjectValidator {
    private final ObjectKind<?> kind;
    private final List<String> fields;
    private final FieldRule[] rules;
    private final FieldType[] types;

    /** Per field, the position of the field its value pairs with; -1 for none. */
    private final int[] partners;

    private final boolean paired;
    private final int allFields;
    private final int maxObjects;

    /** Objects read whole. */
    private int objects;

    private boolean inObject;

    /** One bit per field given in the object being read. */
    private int seen;

    /** The integer values of the object being read, per field, for the rules between fields. */
    private final long[] integers;

    private ObjectValidator(ObjectKind<?> kind, int maxObjects) {
        List<Field> table = kind.fields();
        if (table.size() > Integer.SIZE - 1) {
            throw new IllegalArgumentException("at most 31 fields");
        }
        this.kind = kind;
        this.fields = table.stream().map(Field::name).toList();
        this.rules = table.stream().map(Field::rule).toArray(FieldRule[]::new);
        this.types = table.stream().map(Field::type).toArray(FieldType[]::new);
        this.partners = new int[table.size()];
        boolean anyPair = false;
        for (int i = 0; i < rules.length; i++) {
            partners[i] =
                    rules[i] instanceof FieldRule.PairedInteger pair
                            ? fields.indexOf(pair.partner())
                            : -1;
            anyPair |= partners[i] >= 0;
        }
        this.paired = anyPair;
        this.integers = new long[table.size()];
        this.allFields = (1 << fields.size()) - 1;
        this.maxObjects = maxObjects;
    }

    /** A validator for a body of {@code kind}'s objects, at most {@code maxObjects} of them. */
    public static ObjectValidator of(ObjectKind<?> kind, int maxObjects) {
        return new ObjectValidator(kind, maxObjects);
    }

    public ObjectKind<?> kind() {
        return kind;
    }

    /** The objects read whole so far. */
    public int count() {
        return objects;
    }

    /** The fields' names, in the table's order (protobuf's field numbers, from 1). */
    public List<String> fields() {
        return fields;
    }

    /** Begins the next object of the list. */
    public void startObject() throws BodyTooLargeException {
        if (objects >= maxObjects) {
            throw new BodyTooLargeException(
                    "the list has more than "
                            + maxObjects
                            + " "
                            + kind.plural()
                            + ", the limit (ingest.maxObjects)");
        }
        inObject = true;
        seen = 0;
    }

    /** The field called {@code name}: one of the kind's, not yet given in this object. */
    public int field(CharSequence name) throws InvalidBodyException {
        for (int i = 0; i < fields.size(); i++) {
            if (fields.get(i).contentEquals(name)) {
                return claim(i);
            }
        }
        throw objectProblem("has an unknown field " + Texts.quote(name) + "; " + exactly(), null);
    }

    /** The field at {@code index} of {@link #fields()}, not yet given in this object. */
    public int field(int index) throws InvalidBodyException {
        if (index < 0 || index >= fields.size()) {
            throw new IllegalArgumentException("no field " + index);
        }
        return claim(index);
    }

    private int claim(int field) throws InvalidBodyException {
        if ((seen & 1 << field) != 0) {
            throw fieldProblem(field, "is given twice; give each field once");
        }
        seen |= 1 << field;
        return field;
    }

    public FieldType type(int field) {
        return types[field];
    }

    /**
     * The longest text a STRING field's rule allows: a decoder refuses a longer one without reading
     * it.
     */
    public int maxLength(int field) {
        return rules[field].maxLength();
    }

    /**
     * The longest string any field may hold: the size of a decoder's one buffer for string bytes.
     */
    public int longestString() {
        int longest = 0;
        for (int field = 0; field < fields().size(); field++) {
            longest = Math.max(longest, maxLength(field));
        }
        return longest;
    }

    public void string(int field, CharSequence value) throws InvalidBodyException {
        if (!rules[field].validString(value)) {
            throw invalid(field, Texts.quote(value));
        }
    }

    public void integer(int field, long value) throws InvalidBodyException {
        if (!rules[field].validInteger(value)) {
            throw invalid(field, Long.toString(value));
        }
        integers[field] = value;
    }

    /**
     * A DECIMAL field's value as a text format writes it: digits, then at most two decimals after a
     * point; no sign, no exponent.
     */
    public void decimalLiteral(int field, CharSequence literal) throws InvalidBodyException {
        long cents = Texts.cents(literal);
        if (cents < 0 || !rules[field].validCents(cents)) {
            throw invalid(field, literal.toString());
        }
    }

    /**
     * A DECIMAL field's value as a binary format carries it: a float32 or float64 (or a whole
     * number), which must be the one nearest to a number with at most two decimals — what a float
     * holding {@code cents / 100f} is.
     */
    public void decimal(int field, double value) throws InvalidBodyException {
        long cents = Math.round(value * 100);
        boolean twoDecimals = value == cents / 100.0 || value == (double) (cents / 100f);
        if (!twoDecimals || !rules[field].validCents(cents)) {
            throw invalid(
                    field,
                    value == (float) value
                            ? Float.toString((float) value)
                            : Double.toString(value));
        }
    }

    public void bool(int field, boolean value) throws InvalidBodyException {
        if (types[field] != FieldType.BOOLEAN) {
            throw invalid(field, Boolean.toString(value));
        }
    }

    /**
     * A value a format carries as text (XML), read as its field's type: {@code 12}, {@code 12.5},
     * {@code true}.
     */
    public void text(int field, CharSequence text) throws InvalidBodyException {
        switch (types[field]) {
            case STRING -> string(field, text);
            case INTEGER -> {
                long value = Texts.naturalNumber(text);
                if (value < 0) {
                    throw invalid(field, Texts.quote(text));
                }
                integer(field, value);
            }
            case DECIMAL -> {
                long cents = Texts.cents(text);
                if (cents < 0 || !rules[field].validCents(cents)) {
                    throw invalid(field, Texts.quote(text));
                }
            }
            case BOOLEAN -> {
                if ("true".contentEquals(text) || "false".contentEquals(text)) {
                    bool(field, "true".contentEquals(text));
                } else {
                    throw invalid(field, Texts.quote(text));
                }
            }
        }
    }

    /**
     * Checks the default value proto3 reads for an absent field ({@code ""}, 0, false): Protobuf
     * cannot tell an absent field from one holding its default.
     */
    public void absentAsDefault(int field) throws InvalidBodyException {
        claim(field);
        boolean valid =
                switch (types[field]) {
                    case STRING -> rules[field].validString("");
                    case INTEGER -> rules[field].validInteger(0);
                    case DECIMAL -> rules[field].validCents(0);
                    case BOOLEAN -> true;
                };
        integers[field] = 0;
        if (!valid) {
            String defaultValue = types[field] == FieldType.STRING ? "\"\"" : "0";
            throw fieldProblem(
                    field,
                    "must be "
                            + rules[field].words()
                            + ", got nothing (an absent field reads as proto3's "
                            + "default, "
                            + defaultValue
                            + ")");
        }
    }

    /** Ends the object: every field must have been given; then the rules between fields. */
    public void endObject() throws InvalidBodyException {
        int missing = allFields & ~seen;
        if (missing != 0) {
            StringBuilder names = new StringBuilder();
            for (int i = 0; i < fields.size(); i++) {
                if ((missing & 1 << i) != 0) {
                    names.append(names.length() == 0 ? "" : ", ").append(fields.get(i));
                }
            }
            throw objectProblem(
                    "has no " + names + "; " + exactly(),
                    fields.get(Integer.numberOfTrailingZeros(missing)));
        }
        if (paired) {
            checkPairs();
        }
        objects++;
        inObject = false;
    }

    /** Each paired field's value must be its partner's pair (Video's width for its height). */
    private void checkPairs() throws InvalidBodyException {
        for (int field = 0; field < partners.length; field++) {
            int partner = partners[field];
            if (partner >= 0) {
                FieldRule.PairedInteger pair = (FieldRule.PairedInteger) rules[field];
                if (!pair.pairs(integers[partner], integers[field])) {
                    throw fieldProblem(
                            field,
                            "must be "
                                    + pair.pairOf(integers[partner])
                                    + " for "
                                    + fields.get(partner)
                                    + " "
                                    + integers[partner]
                                    + " ("
                                    + fields.get(partner)
                                    + "s and "
                                    + fields.get(field)
                                    + "s pair as "
                                    + pair.pairs()
                                    + "), got "
                                    + integers[field]);
                }
            }
        }
    }

    /**
     * The error for {@code field}'s value; {@code got} says what it was ({@code null}, {@code
     * "12"}, {@code an object}).
     */
    public InvalidBodyException invalid(int field, String got) {
        return fieldProblem(field, "must be " + rules[field].words() + ", got " + got);
    }

    /** The error for an element of the list that is not an object; {@code got} says what it is. */
    public InvalidBodyException notAnObject(String got) {
        return new InvalidBodyException(
                label(objects)
                        + " must be "
                        + aKind()
                        + " with the fields "
                        + String.join(", ", fields)
                        + ", got "
                        + got,
                objects,
                null);
    }

    /** A problem of the object being read as a whole ({@code books[3] has …}). */
    public InvalidBodyException objectProblem(String what, String field) {
        return new InvalidBodyException(label(objects) + " " + what, objects, field);
    }

    /** A problem of {@code field}'s value ({@code books[3].title …}). */
    public InvalidBodyException fieldProblem(int field, String what) {
        return new InvalidBodyException(
                label(objects) + "." + fields.get(field) + " " + what, objects, fields.get(field));
    }

    /**
     * A problem of the body or the list itself, said with where the decoder was ({@code in
     * books[3]}).
     */
    public InvalidBodyException listProblem(String what) {
        return inObject
                ? new InvalidBodyException(what + " (in " + label(objects) + ")", objects, null)
                : new InvalidBodyException(
                        objects == 0 ? what : what + " (after " + label(objects - 1) + ")");
    }

    /** The body is not well-formed in its format, as its parser says ({@code detail}). */
    public InvalidBodyException malformed(String format, String detail) {
        return listProblem("the body is not valid " + format + ": " + detail);
    }

    /** The list has no object. */
    public InvalidBodyException emptyList() {
        return new InvalidBodyException("the list is empty; send at least one " + kind.singular());
    }

    /** What the list must hold, for messages: {@code a book}. */
    public String aKind() {
        return "a " + kind.singular();
    }

    private String exactly() {
        return aKind() + " has exactly the fields " + String.join(", ", fields);
    }

    private String label(int object) {
        return kind.plural() + "[" + object + "]";
    }
}
