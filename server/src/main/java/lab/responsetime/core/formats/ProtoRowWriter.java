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
 * a message per object. One walk ({@link #walk}) holds those rules; sizing and writing are what it
 * does with each field it keeps.
 */
final class ProtoRowWriter {
    private ProtoRowWriter() {}

    /** The size of {@code row}'s message, without its tag and length. */
    static int size(Schema schema, Object[] row) {
        Sizer sizer = new Sizer();
        walk(schema, row, sizer);
        return sizer.bytes;
    }

    /** Writes {@code row}'s message, without its tag and length. */
    static void write(CodedOutputStream out, Schema schema, Object[] row) throws IOException {
        walk(schema, row, new Writer(out));
    }

    /**
     * What a walk does with each field of a message that it keeps: a sizer adds up its bytes, a
     * writer writes them.
     *
     * @param <E> what it may throw: nothing checked for a sizer, {@link IOException} for a writer
     */
    private interface FieldVisitor<E extends Exception> {
        /** A repeated number or boolean: one tag, the data's length, then each element untagged. */
        void packed(int number, Schema.SchemaField field, Object[] elements) throws E;

        /** One tagged value: a scalar, an object, an element of a repeated string or object. */
        void tagged(int number, Schema.SchemaField field, Object value) throws E;
    }

    /**
     * Walks {@code row}'s fields in number order and hands {@code visitor} those its message holds:
     * no value (null) and an empty repeated field are left out, a repeated number or boolean is
     * packed, a scalar without presence at proto3's default is left out.
     */
    private static <E extends Exception> void walk(
            Schema schema, Object[] row, FieldVisitor<E> visitor) throws E {
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
                    visitor.packed(number, field, elements);
                } else {
                    for (Object element : elements) {
                        visitor.tagged(number, field, element);
                    }
                }
            } else if (field.optional() || !isDefault(field, value)) {
                visitor.tagged(number, field, value);
            }
        }
    }

    /** Adds up the bytes of the fields it is handed. */
    private static final class Sizer implements FieldVisitor<RuntimeException> {
        private int bytes;

        @Override
        public void packed(int number, Schema.SchemaField field, Object[] elements) {
            int data = packedSize(field, elements);
            bytes +=
                    CodedOutputStream.computeTagSize(number)
                            + CodedOutputStream.computeUInt32SizeNoTag(data)
                            + data;
        }

        @Override
        public void tagged(int number, Schema.SchemaField field, Object value) {
            bytes += CodedOutputStream.computeTagSize(number) + sizeNoTag(field, value);
        }
    }

    /** Writes the fields it is handed, a nested object's through the same walk. */
    private static final class Writer implements FieldVisitor<IOException> {
        private final CodedOutputStream out;

        Writer(CodedOutputStream out) {
            this.out = out;
        }

        @Override
        public void packed(int number, Schema.SchemaField field, Object[] elements)
                throws IOException {
            out.writeTag(number, WireFormat.WIRETYPE_LENGTH_DELIMITED);
            out.writeUInt32NoTag(packedSize(field, elements));
            for (Object element : elements) {
                writeNoTag(field, element);
            }
        }

        @Override
        public void tagged(int number, Schema.SchemaField field, Object value) throws IOException {
            switch (field.type()) {
                case STRING -> out.writeString(number, (String) value);
                case INT32 -> out.writeInt32(number, (int) (long) (Long) value);
                case INT64 -> out.writeInt64(number, (Long) value);
                case DOUBLE -> out.writeDouble(number, (Double) value);
                case BOOLEAN -> out.writeBool(number, (Boolean) value);
                case OBJECT -> {
                    out.writeTag(number, WireFormat.WIRETYPE_LENGTH_DELIMITED);
                    writeNoTag(field, value);
                }
            }
        }

        private void writeNoTag(Schema.SchemaField field, Object value) throws IOException {
            switch (field.type()) {
                case STRING -> out.writeStringNoTag((String) value);
                case INT32 -> out.writeInt32NoTag((int) (long) (Long) value);
                case INT64 -> out.writeInt64NoTag((Long) value);
                case DOUBLE -> out.writeDoubleNoTag((Double) value);
                case BOOLEAN -> out.writeBoolNoTag((Boolean) value);
                case OBJECT -> {
                    Object[] nested = (Object[]) value;
                    out.writeUInt32NoTag(size(field.nested(), nested));
                    walk(field.nested(), nested, this);
                }
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
}
