package lab.responsetime.core.dataset;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Infers a brought dataset's {@link Schema} from all its objects and converts them to rows
 * (docs/datasets.md#schema-inference). Every rule keeps the data mappable to every format: a value
 * that one of them could not carry is refused, with the object's index, the field and why.
 */
public final class SchemaInference {
    /** Levels of objects, the top-level ones counted: deeper nesting is refused. */
    public static final int MAX_DEPTH = 8;

    /** Characters of a field name. */
    public static final int MAX_NAME_CHARS = 64;

    /** A name valid as an XML element and attribute name and as a Protobuf field name. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private SchemaInference() {}

    /** The kinds of JSON value, as inference tells them apart. */
    private enum Kind {
        STRING("a string"),
        INTEGER("an integer"),
        DOUBLE("a floating-point number"),
        BOOLEAN("a boolean"),
        OBJECT("an object"),
        ARRAY("an array");

        private final String words;

        Kind(String words) {
            this.words = words;
        }
    }

    /** What has been seen of one value position (a field, or an array's elements). */
    private static final class ValueShape {
        Kind kind;
        int firstObject;
        boolean fitsInt32 = true;
        ObjectShape object;
        ValueShape element;
    }

    /** What has been seen of one object position: its fields in the order they first appeared. */
    private static final class ObjectShape {
        final Map<String, FieldShape> fields = new LinkedHashMap<>();
        final Map<String, String> folded = new HashMap<>();
        int seen;
    }

    private static final class FieldShape {
        final ValueShape value = new ValueShape();
        int present;
        boolean everNull;
    }

    /** A dataset's schema and its objects as rows of that schema. */
    public record Inferred(Schema schema, List<Object[]> rows) {}

    /**
     * The schema of {@code objects} (as Jackson reads JSON into {@code Object}: maps, lists,
     * strings, numbers, booleans, null) and the objects as its rows.
     *
     * @throws DatasetRefusedException naming the first problem
     */
    public static Inferred infer(List<?> objects) throws DatasetRefusedException {
        if (objects.isEmpty()) {
            throw new DatasetRefusedException(
                    "the list is empty; a dataset needs at least one object");
        }
        ObjectShape root = new ObjectShape();
        for (int i = 0; i < objects.size(); i++) {
            if (!(objects.get(i) instanceof Map<?, ?> object)) {
                throw new DatasetRefusedException(
                        "object "
                                + i
                                + " is "
                                + describe(objects.get(i))
                                + "; a dataset is a list of objects",
                        i,
                        null);
            }
            observeObject(root, object, i, "", 1);
        }
        Schema schema = schemaOf(root, "");
        List<Object[]> rows = new ArrayList<>(objects.size());
        for (Object object : objects) {
            rows.add(row(schema, (Map<?, ?>) object));
        }
        return new Inferred(schema, rows);
    }

    private static void observeObject(
            ObjectShape shape, Map<?, ?> object, int index, String path, int depth)
            throws DatasetRefusedException {
        if (depth > MAX_DEPTH) {
            throw new DatasetRefusedException(
                    "object "
                            + index
                            + ", field "
                            + quote(path)
                            + ": objects are nested more than "
                            + MAX_DEPTH
                            + " levels deep (the limit)",
                    index,
                    path);
        }
        shape.seen++;
        for (Map.Entry<?, ?> entry : object.entrySet()) {
            String name = (String) entry.getKey();
            String fieldPath = path.isEmpty() ? name : path + "." + name;
            FieldShape field = shape.fields.get(name);
            if (field == null) {
                checkName(name, index, fieldPath);
                String fold = name.replace("_", "").toLowerCase(Locale.ROOT);
                String clash = shape.folded.putIfAbsent(fold, name);
                if (clash != null) {
                    throw new DatasetRefusedException(
                            "object "
                                    + index
                                    + ", field "
                                    + quote(fieldPath)
                                    + ": the name differs from the field "
                                    + quote(clash)
                                    + " only in case or underscores, which Protobuf's JSON names"
                                    + " cannot tell apart",
                            index,
                            fieldPath);
                }
                field = new FieldShape();
                shape.fields.put(name, field);
            }
            if (entry.getValue() == null) {
                field.everNull = true;
                continue;
            }
            field.present++;
            observeValue(field.value, entry.getValue(), index, fieldPath, depth);
        }
    }

    private static void observeValue(
            ValueShape shape, Object value, int index, String path, int depth)
            throws DatasetRefusedException {
        Kind kind = kindOf(value, index, path);
        if (shape.kind == null) {
            shape.kind = kind;
            shape.firstObject = index;
        } else if (shape.kind != kind) {
            if (numeric(shape.kind) && numeric(kind)) {
                shape.kind = Kind.DOUBLE;
            } else {
                throw new DatasetRefusedException(
                        "object "
                                + index
                                + ", field "
                                + quote(path)
                                + ": "
                                + kind.words
                                + " here, but "
                                + shape.kind.words
                                + " in object "
                                + shape.firstObject
                                + "; a field holds one type of value",
                        index,
                        path);
            }
        }
        switch (kind) {
            case STRING -> checkString((String) value, index, path);
            case INTEGER -> {
                long number = ((Number) value).longValue();
                if (number != (int) number) {
                    shape.fitsInt32 = false;
                }
            }
            case OBJECT -> {
                if (shape.object == null) {
                    shape.object = new ObjectShape();
                }
                observeObject(shape.object, (Map<?, ?>) value, index, path, depth + 1);
            }
            case ARRAY -> {
                if (shape.element == null) {
                    shape.element = new ValueShape();
                }
                for (Object element : (List<?>) value) {
                    if (element == null) {
                        throw new DatasetRefusedException(
                                "object "
                                        + index
                                        + ", field "
                                        + quote(path)
                                        + ": an array holds null; Protobuf's repeated fields"
                                        + " cannot",
                                index,
                                path);
                    }
                    if (element instanceof List<?>) {
                        throw new DatasetRefusedException(
                                "object "
                                        + index
                                        + ", field "
                                        + quote(path)
                                        + ": an array of arrays; Protobuf has no such type (wrap"
                                        + " the inner arrays in objects)",
                                index,
                                path);
                    }
                    observeValue(shape.element, element, index, path + "[]", depth);
                }
            }
            default -> {}
        }
    }

    private static Kind kindOf(Object value, int index, String path)
            throws DatasetRefusedException {
        if (value instanceof String) {
            return Kind.STRING;
        }
        if (value instanceof Boolean) {
            return Kind.BOOLEAN;
        }
        if (value instanceof Integer || value instanceof Long || value instanceof Short) {
            return Kind.INTEGER;
        }
        if (value instanceof BigInteger big) {
            if (big.bitLength() < Long.SIZE) {
                return Kind.INTEGER;
            }
            throw new DatasetRefusedException(
                    "object "
                            + index
                            + ", field "
                            + quote(path)
                            + ": the integer "
                            + big
                            + " needs more than 64 bits",
                    index,
                    path);
        }
        if (value instanceof Double || value instanceof Float) {
            if (!Double.isFinite(((Number) value).doubleValue())) {
                throw new DatasetRefusedException(
                        "object "
                                + index
                                + ", field "
                                + quote(path)
                                + ": the number is beyond a 64-bit floating-point number's range",
                        index,
                        path);
            }
            return Kind.DOUBLE;
        }
        if (value instanceof Map<?, ?>) {
            return Kind.OBJECT;
        }
        if (value instanceof List<?>) {
            return Kind.ARRAY;
        }
        throw new IllegalArgumentException("not a value Jackson reads from JSON: " + value);
    }

    private static boolean numeric(Kind kind) {
        return kind == Kind.INTEGER || kind == Kind.DOUBLE;
    }

    private static void checkName(String name, int index, String path)
            throws DatasetRefusedException {
        String why = null;
        if (name.isEmpty()) {
            why = "a field name must not be empty";
        } else if (name.length() > MAX_NAME_CHARS) {
            why = "a field name has at most " + MAX_NAME_CHARS + " characters";
        } else if (!NAME.matcher(name).matches()) {
            why =
                    "a field name is letters A–Z and a–z, digits and _, not starting with a digit"
                            + " (so that it is a valid XML and Protobuf name)";
        } else if (name.toLowerCase(Locale.ROOT).startsWith("xml")) {
            why = "XML reserves names starting with \"xml\"";
        } else if (name.equals("__proto__")) {
            why = "JavaScript objects cannot hold a field named __proto__";
        }
        if (why != null) {
            throw new DatasetRefusedException(
                    "object " + index + ", field " + quote(path) + ": " + why, index, path);
        }
    }

    /**
     * Refuses what XML 1.0 cannot carry in text or attributes (control characters other than tab,
     * line feed and carriage return, U+FFFE and U+FFFF) and unpaired surrogates, which neither XML
     * nor Protobuf's UTF-8 can.
     */
    private static void checkString(String value, int index, String path)
            throws DatasetRefusedException {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            String why = null;
            if (c < 0x20 && c != '\t' && c != '\n' && c != '\r' || c == 0xFFFE || c == 0xFFFF) {
                why =
                        String.format(
                                Locale.ROOT,
                                "the character U+%04X, which XML cannot carry",
                                (int) c);
            } else if (Character.isHighSurrogate(c)) {
                if (i + 1 < value.length() && Character.isLowSurrogate(value.charAt(i + 1))) {
                    i++;
                } else {
                    why = "an unpaired surrogate, which is not Unicode text";
                }
            } else if (Character.isLowSurrogate(c)) {
                why = "an unpaired surrogate, which is not Unicode text";
            }
            if (why != null) {
                throw new DatasetRefusedException(
                        "object "
                                + index
                                + ", field "
                                + quote(path)
                                + ": the string has "
                                + why
                                + " (at character "
                                + i
                                + ")",
                        index,
                        path);
            }
        }
    }

    private static Schema schemaOf(ObjectShape shape, String path) throws DatasetRefusedException {
        List<Schema.SchemaField> fields = new ArrayList<>();
        for (Map.Entry<String, FieldShape> entry : shape.fields.entrySet()) {
            String name = entry.getKey();
            String fieldPath = path.isEmpty() ? name : path + "." + name;
            FieldShape field = entry.getValue();
            ValueShape value = field.value;
            if (value.kind == null) {
                throw new DatasetRefusedException(
                        "field "
                                + quote(fieldPath)
                                + " is null in every object that has it, so its type cannot be"
                                + " inferred",
                        null,
                        fieldPath);
            }
            boolean repeated = value.kind == Kind.ARRAY;
            ValueShape typed = repeated ? value.element : value;
            ValueType type;
            Schema nested = null;
            if (typed.kind == null) {
                // Only empty arrays: their elements' type is unknown; strings, documented.
                type = ValueType.STRING;
            } else {
                type =
                        switch (typed.kind) {
                            case STRING -> ValueType.STRING;
                            case INTEGER -> typed.fitsInt32 ? ValueType.INT32 : ValueType.INT64;
                            case DOUBLE -> ValueType.DOUBLE;
                            case BOOLEAN -> ValueType.BOOLEAN;
                            case OBJECT -> ValueType.OBJECT;
                            case ARRAY -> throw new IllegalStateException("checked when seen");
                        };
                if (type == ValueType.OBJECT) {
                    nested = schemaOf(typed.object, fieldPath + (repeated ? "[]" : ""));
                }
            }
            boolean optional = !repeated && (field.everNull || field.present < shape.seen);
            fields.add(new Schema.SchemaField(name, type, repeated, optional, nested));
        }
        return new Schema(fields);
    }

    private static Object[] row(Schema schema, Map<?, ?> object) {
        List<Schema.SchemaField> fields = schema.fields();
        Object[] row = new Object[fields.size()];
        for (int i = 0; i < row.length; i++) {
            Schema.SchemaField field = fields.get(i);
            Object value = object.get(field.name());
            if (value == null) {
                continue;
            }
            if (field.repeated()) {
                List<?> list = (List<?>) value;
                Object[] elements = new Object[list.size()];
                for (int j = 0; j < elements.length; j++) {
                    elements[j] = scalarOrObject(field, list.get(j));
                }
                row[i] = elements;
            } else {
                row[i] = scalarOrObject(field, value);
            }
        }
        return row;
    }

    private static Object scalarOrObject(Schema.SchemaField field, Object value) {
        return switch (field.type()) {
            case STRING, BOOLEAN -> value;
            case INT32, INT64 -> ((Number) value).longValue();
            case DOUBLE -> ((Number) value).doubleValue();
            case OBJECT -> row(field.nested(), (Map<?, ?>) value);
        };
    }

    private static String describe(Object value) {
        if (value == null) {
            return "null";
        }
        if (value instanceof List<?>) {
            return "an array";
        }
        if (value instanceof String) {
            return "a string";
        }
        if (value instanceof Boolean) {
            return "a boolean";
        }
        return "a number";
    }

    private static String quote(String path) {
        return "\"" + path + "\"";
    }
}
