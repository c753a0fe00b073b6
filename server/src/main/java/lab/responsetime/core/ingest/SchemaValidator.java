package lab.responsetime.core.ingest;

import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import lab.responsetime.core.dataset.ObjectKind;
import lab.responsetime.core.dataset.Schema;
import lab.responsetime.core.dataset.ValueType;
import lab.responsetime.core.formats.ObjectSink;

/**
 * Checks the objects of one body posted to a brought dataset's collector against the dataset's
 * {@link Schema} (docs/datasets.md#collecting): every field one of the schema's, each value of its
 * field's type (an int32 within 32 bits, an int64 within 64, a double any finite number, a nested
 * object by its own fields, an array's every element), a field that is not optional present and not
 * null; an array may be absent (it reads as empty). One instance per body; it counts the objects
 * and keeps none.
 *
 * <p>A refusal names the object by its index in the list (from 0) and the field by its path: {@code
 * logs[3].user.geo.lat must be a number (double), got "north"}.
 */
public final class SchemaValidator implements ObjectSink {
    private final ObjectKind<?> kind;
    private final Schema schema;
    private final int maxObjects;
    private int objects;
    private boolean inObject;

    private SchemaValidator(ObjectKind<?> kind, int maxObjects) {
        this.kind = kind;
        this.schema = kind.schema().orElseThrow();
        this.maxObjects = maxObjects;
    }

    /** A validator for a body of brought dataset {@code kind}'s objects, at most {@code max}. */
    public static SchemaValidator of(ObjectKind<?> kind, int maxObjects) {
        return new SchemaValidator(kind, maxObjects);
    }

    @Override
    public String plural() {
        return kind.plural();
    }

    @Override
    public void startObject() throws BodyTooLargeException {
        if (objects >= maxObjects) {
            throw new BodyTooLargeException(
                    "the list has more than "
                            + maxObjects
                            + " objects, the limit (ingest.maxObjects)");
        }
        inObject = true;
    }

    @Override
    public void object(Map<String, Object> object) throws InvalidBodyException {
        check(schema, object, "");
        objects++;
        inObject = false;
    }

    @Override
    public int count() {
        return objects;
    }

    private void check(Schema schema, Map<String, Object> object, String path)
            throws InvalidBodyException {
        for (String name : object.keySet()) {
            if (schema.fields().stream().noneMatch(f -> f.name().equals(name))) {
                throw problem(
                        path,
                        (path.isEmpty() ? "has" : " has")
                                + " an unknown field "
                                + Texts.quote(name)
                                + "; "
                                + fieldsOf(schema, path),
                        join(path, name));
            }
        }
        for (Schema.SchemaField field : schema.fields()) {
            String fieldPath = join(path, field.name());
            Object value = object.get(field.name());
            if (value == null) {
                if (!field.repeated() && !field.optional()) {
                    throw object.containsKey(field.name())
                            ? invalid(fieldPath, field, "null")
                            : problem(
                                    path,
                                    (path.isEmpty() ? "has" : " has")
                                            + " no "
                                            + field.name()
                                            + "; the field is in every object of the dataset",
                                    fieldPath);
                }
                continue;
            }
            if (field.repeated()) {
                if (!(value instanceof List<?> list)) {
                    throw invalid(fieldPath, field, describe(value));
                }
                for (int i = 0; i < list.size(); i++) {
                    checkValue(field, list.get(i), fieldPath + "[" + i + "]");
                }
            } else {
                checkValue(field, value, fieldPath);
            }
        }
    }

    @SuppressWarnings("unchecked")
    private void checkValue(Schema.SchemaField field, Object value, String path)
            throws InvalidBodyException {
        boolean valid =
                switch (field.type()) {
                    case STRING -> value instanceof String;
                    case INT32 -> integer(value) && fits(value, Integer.SIZE);
                    case INT64 -> integer(value) && fits(value, Long.SIZE);
                    case DOUBLE ->
                            value instanceof Number number && Double.isFinite(number.doubleValue());
                    case BOOLEAN -> value instanceof Boolean;
                    case OBJECT -> value instanceof Map<?, ?>;
                };
        if (!valid) {
            throw invalid(path, field, describe(value));
        }
        if (field.type() == ValueType.OBJECT) {
            check(field.nested(), (Map<String, Object>) value, path);
        }
    }

    private static boolean integer(Object value) {
        return value instanceof Integer || value instanceof Long || value instanceof BigInteger;
    }

    private static boolean fits(Object value, int bits) {
        return value instanceof BigInteger big
                ? big.bitLength() < bits
                : bits == Long.SIZE || ((Number) value).longValue() == ((Number) value).intValue();
    }

    /** What a field's values must be, in words. */
    static String words(Schema.SchemaField field) {
        String one =
                switch (field.type()) {
                    case STRING -> "a string";
                    case INT32 -> "an integer within 32 bits (int32)";
                    case INT64 -> "an integer within 64 bits (int64)";
                    case DOUBLE -> "a number (double)";
                    case BOOLEAN -> "true or false";
                    case OBJECT -> "an object";
                };
        return field.repeated() ? "an array whose every element is " + one : one;
    }

    private InvalidBodyException invalid(String path, Schema.SchemaField field, String got) {
        boolean element = path.endsWith("]");
        String words = element ? words(elementOf(field)) : words(field);
        return problem(path, " must be " + words + ", got " + got, path);
    }

    private static Schema.SchemaField elementOf(Schema.SchemaField field) {
        return new Schema.SchemaField(field.name(), field.type(), false, false, field.nested());
    }

    /** What a value is, for messages: the value itself for strings, numbers and booleans. */
    static String describe(Object value) {
        if (value == null) {
            return "null";
        }
        if (value instanceof String text) {
            return Texts.quote(text);
        }
        if (value instanceof Number || value instanceof Boolean) {
            return value.toString();
        }
        if (value instanceof Map<?, ?>) {
            return "an object";
        }
        if (value instanceof List<?>) {
            return "an array";
        }
        if (value instanceof Opaque opaque) {
            return opaque.description();
        }
        return value.getClass().getSimpleName();
    }

    private String fieldsOf(Schema schema, String path) {
        return (path.isEmpty() ? "an object of " + kind.plural() : path)
                + " has the fields "
                + schema.fields().stream()
                        .map(Schema.SchemaField::name)
                        .collect(Collectors.joining(", "));
    }

    private static String join(String path, String name) {
        return path.isEmpty() ? name : path + "." + name;
    }

    /** {@code logs[3]} and then {@code what}, naming {@code field} as where the problem is. */
    private InvalidBodyException problem(String path, String what, String field) {
        String at = label(objects) + (path.isEmpty() ? " " : "." + path);
        return new InvalidBodyException(at + what, objects, field);
    }

    @Override
    public InvalidBodyException notAnObject(String got) {
        return new InvalidBodyException(
                label(objects) + " must be an object with the fields of the dataset, got " + got,
                objects,
                null);
    }

    @Override
    public InvalidBodyException objectProblem(String what) {
        return new InvalidBodyException(label(objects) + " " + what, objects, null);
    }

    @Override
    public InvalidBodyException fieldProblem(String path, String what) {
        return new InvalidBodyException(label(objects) + "." + path + " " + what, objects, path);
    }

    @Override
    public InvalidBodyException listProblem(String what) {
        return inObject
                ? new InvalidBodyException(what + " (in " + label(objects) + ")", objects, null)
                : new InvalidBodyException(
                        objects == 0 ? what : what + " (after " + label(objects - 1) + ")");
    }

    @Override
    public InvalidBodyException malformed(String format, String detail) {
        return listProblem("the body is not valid " + format + ": " + detail);
    }

    @Override
    public InvalidBodyException emptyList() {
        return new InvalidBodyException(
                "the list is empty; send at least one object of " + kind.plural());
    }

    private String label(int object) {
        return kind.plural() + "[" + object + "]";
    }
}
