package lab.responsetime.core.dataset;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The field table of a brought dataset, inferred from its objects (docs/datasets.md): every field
 * of an object in the order it first appeared, with its type. An object of the dataset is held as
 * an {@code Object[]} in this order: a {@link String}, a {@link Long} (int32 and int64), a {@link
 * Double}, a {@link Boolean}, an {@code Object[]} of a nested object's values, or, for a repeated
 * field, an {@code Object[]} of its elements; {@code null} where the object has no value.
 */
public record Schema(List<SchemaField> fields) {
    public Schema {
        fields = List.copyOf(fields);
    }

    /**
     * One field.
     *
     * @param type the type of its value, or of each element when {@code repeated}
     * @param repeated whether it is an array
     * @param optional whether some object lacks it (absent or null); a repeated field is never
     *     optional, since Protobuf cannot tell an absent array from an empty one
     * @param nested the schema of its objects, for {@link ValueType#OBJECT}; else null
     */
    public record SchemaField(
            String name, ValueType type, boolean repeated, boolean optional, Schema nested) {
        /** Whether one value is a scalar: neither an array nor an object. */
        public boolean scalar() {
            return !repeated && type != ValueType.OBJECT;
        }

        /** The type as the field list shows it: {@code int64}, {@code string[]}, {@code object}. */
        public String typeName() {
            return type.schemaName() + (repeated ? "[]" : "");
        }
    }

    /** The fields whose values are scalars, in order: the sort keys of the computation models. */
    public List<Integer> scalarFields() {
        List<Integer> scalars = new ArrayList<>();
        for (int i = 0; i < fields.size(); i++) {
            if (fields.get(i).scalar()) {
                scalars.add(i);
            }
        }
        return scalars;
    }

    /**
     * The field list as {@code GET /api/datasets/{name}} shows it: name, type, whether optional,
     * and a nested object's fields.
     */
    public List<Map<String, Object>> describe() {
        List<Map<String, Object>> list = new ArrayList<>();
        for (SchemaField field : fields) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("name", field.name());
            entry.put("type", field.typeName());
            entry.put("optional", field.optional());
            if (field.nested() != null) {
                entry.put("fields", field.nested().describe());
            }
            list.add(entry);
        }
        return list;
    }
}
