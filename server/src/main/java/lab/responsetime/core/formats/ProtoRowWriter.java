package lab.responsetime.core.formats;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.WireFormat;
import java.io.IOException;
import java.util.List;
import lab.responsetime.core.dataset.Schema;

/**
 * Writes one row of a brought dataset as its inferred {@code Item} message
 * (docs/datasets.md#formats) with protobuf-java's {@link CodedOutputStream}, straight from the
 * {@link Schema}: field {@code i} of the schema is field number {@code i + 1}, of the scalar type
 * the schema names. The bytes are those protobuf-java's {@link com.google.protobuf.DynamicMessage}
 * of the same row writes — fields in number order; a scalar that is not optional left out at
 * proto3's default ({@code ""}, 0, {@code false}, a double whose bits are 0); an optional one
 * written whenever it has a value; repeated scalars packed, as proto3 packs them — without building
 * a message per object.
 */
final class ProtoRowWriter {
    private ProtoRowWriter() {}

    /** The size of {@code row}'s message, without its tag and length. */
    static int size(Schema schema, Object[] row) {
        List<Schema.SchemaField> fields = schema.fields();
        int size = 0;
        for (int i = 0; i < row.length; i++) {
            Object value = row[i];
            if (value == null) {
                continue;
            }
            Schema.SchemaField field = fields.get(i);
            int number = i + 1;
            if (field.repeated()) {
                Object[] elements = (Object[]) value;
                if (elements.length == 0) {
                    continue;
                }
                if (packed(field)) {
                    int data = packedSize(field, elements);
                    size +=
                            CodedOutputStream.computeTagSize(number)
                                    + CodedOutputStream.computeUInt32SizeNoTag(data)
                                    + data;
                } else {
                    for (Object element : elements) {
                        size +=
                                CodedOutputStream.computeTagSize(number)
                                        + sizeNoTag(field, element);
                    }
                }
            } else if (field.optional() || !isDefault(field, value)) {
                size += CodedOutputStream.computeTagSize(number) + sizeNoTag(field, value);
            }
        }
        return size;
    }

    /** Writes {@code row}'s message, without its tag and length. */
    static void write(CodedOutputStream out, Schema schema, Object[] row) throws IOException {
        List<Schema.SchemaField> fields = schema.fields();
        for (int i = 0; i < row.length; i++) {
            Object value = row[i];
            if (value == null) {
                continue;
            }
            Schema.SchemaField field = fields.get(i);
            int number = i + 1;
            if (field.repeated()) {
                Object[] elements = (Object[]) value;
                if (elements.length == 0) {
                    continue;
                }
                if (packed(field)) {
                    out.writeTag(number, WireFormat.WIRETYPE_LENGTH_DELIMITED);
                    out.writeUInt32NoTag(packedSize(field, elements));
                    for (Object element : elements) {
                        writeNoTag(out, field, element);
                    }
                } else {
                    for (Object element : elements) {
                        writeTagged(out, field, number, element);
                    }
                }
            } else if (field.optional() || !isDefault(field, value)) {
                writeTagged(out, field, number, value);
            }
        }
    }

    /** Repeated numbers and booleans are packed in proto3; strings and messages are not. */
    private static boolean packed(Schema.SchemaField field) {
        return switch (field.type()) {
            case INT32, INT64, DOUBLE, BOOLEAN -> true;
            case STRING, OBJECT -> false;
        };
    }

    private static int packedSize(Schema.SchemaField field, Object[] elements) {
        int size = 0;
        for (Object element : elements) {
            size += sizeNoTag(field, element);
        }
        return size;
    }

    /** Whether proto3 leaves out {@code value} of a field without presence. */
    private static boolean isDefault(Schema.SchemaField field, Object value) {
        return switch (field.type()) {
            case STRING -> ((String) value).isEmpty();
            case INT32, INT64 -> (Long) value == 0L;
            case DOUBLE -> Double.doubleToRawLongBits((Double) value) == 0L;
            case BOOLEAN -> !(Boolean) value;
            case OBJECT -> false;
        };
    }

    private static int sizeNoTag(Schema.SchemaField field, Object value) {
        return switch (field.type()) {
            case STRING -> CodedOutputStream.computeStringSizeNoTag((String) value);
            case INT32 -> CodedOutputStream.computeInt32SizeNoTag((int) (long) (Long) value);
            case INT64 -> CodedOutputStream.computeInt64SizeNoTag((Long) value);
            case DOUBLE -> CodedOutputStream.computeDoubleSizeNoTag((Double) value);
            case BOOLEAN -> CodedOutputStream.computeBoolSizeNoTag((Boolean) value);
            case OBJECT -> {
                int size = size(field.nested(), (Object[]) value);
                yield CodedOutputStream.computeUInt32SizeNoTag(size) + size;
            }
        };
    }

    private static void writeTagged(
            CodedOutputStream out, Schema.SchemaField field, int number, Object value)
            throws IOException {
        switch (field.type()) {
            case STRING -> out.writeString(number, (String) value);
            case INT32 -> out.writeInt32(number, (int) (long) (Long) value);
            case INT64 -> out.writeInt64(number, (Long) value);
            case DOUBLE -> out.writeDouble(number, (Double) value);
            case BOOLEAN -> out.writeBool(number, (Boolean) value);
            case OBJECT -> {
                out.writeTag(number, WireFormat.WIRETYPE_LENGTH_DELIMITED);
                writeNoTag(out, field, value);
            }
        }
    }

    private static void writeNoTag(CodedOutputStream out, Schema.SchemaField field, Object value)
            throws IOException {
        switch (field.type()) {
            case STRING -> out.writeStringNoTag((String) value);
            case INT32 -> out.writeInt32NoTag((int) (long) (Long) value);
            case INT64 -> out.writeInt64NoTag((Long) value);
            case DOUBLE -> out.writeDoubleNoTag((Double) value);
            case BOOLEAN -> out.writeBoolNoTag((Boolean) value);
            case OBJECT -> {
                Object[] nested = (Object[]) value;
                out.writeUInt32NoTag(size(field.nested(), nested));
                write(out, field.nested(), nested);
            }
        }
    }
}
