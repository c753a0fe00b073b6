package lab.responsetime.core.dataset;

import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.OneofDescriptorProto;
import com.google.protobuf.Descriptors;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.DynamicMessage;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The Protobuf schema of a brought dataset (docs/datasets.md#protobuf): a proto3 file with the
 * message {@code Item} (one object: the schema's fields numbered 1, 2, … in order), one top-level
 * message per nested object ({@code Item_<field>}, with the path's field names joined by {@code _},
 * and a number appended where that name is taken), and the list {@code ItemList { repeated Item
 * items = 1; }}. Built once, as {@code .proto} text for the user and the browser, and as
 * protobuf-java descriptors from which the server writes {@link DynamicMessage}s.
 */
public final class ProtoSchema {
    /** The message of one object. */
    public static final String ITEM = "Item";

    /** The list message, what a response body is. */
    public static final String LIST = "ItemList";

    private final String packageName;
    private final String text;
    private final Descriptor item;

    private ProtoSchema(String packageName, String text, Descriptor item) {
        this.packageName = packageName;
        this.text = text;
        this.item = item;
    }

    /** The schema of {@code dataset}'s objects, in the package {@code lab.datasets.<name>}. */
    public static ProtoSchema of(String dataset, Schema schema) {
        String packageName = "lab.datasets." + dataset.replace('-', '_');
        FileDescriptorProto.Builder file =
                FileDescriptorProto.newBuilder()
                        .setName(dataset + ".proto")
                        .setSyntax("proto3")
                        .setPackage(packageName);
        StringBuilder text = new StringBuilder();
        text.append("syntax = \"proto3\";\n\npackage ").append(packageName).append(";\n");
        Set<String> taken = new HashSet<>(List.of(ITEM, LIST));
        message(ITEM, schema, file, text, taken);
        file.addMessageType(
                DescriptorProto.newBuilder()
                        .setName(LIST)
                        .addField(
                                FieldDescriptorProto.newBuilder()
                                        .setName("items")
                                        .setNumber(1)
                                        .setLabel(FieldDescriptorProto.Label.LABEL_REPEATED)
                                        .setType(FieldDescriptorProto.Type.TYPE_MESSAGE)
                                        .setTypeName("." + packageName + "." + ITEM)));
        text.append("\nmessage ")
                .append(LIST)
                .append(" {\n  repeated ")
                .append(ITEM)
                .append(" items = 1;\n}\n");
        try {
            Descriptors.FileDescriptor built =
                    Descriptors.FileDescriptor.buildFrom(
                            file.build(), new Descriptors.FileDescriptor[0]);
            return new ProtoSchema(packageName, text.toString(), built.findMessageTypeByName(ITEM));
        } catch (Descriptors.DescriptorValidationException e) {
            throw new IllegalStateException("an inferred schema's .proto did not build", e);
        }
    }

    private static void message(
            String name,
            Schema schema,
            FileDescriptorProto.Builder file,
            StringBuilder text,
            Set<String> taken) {
        DescriptorProto.Builder message = DescriptorProto.newBuilder().setName(name);
        StringBuilder body = new StringBuilder();
        List<Schema.SchemaField> fields = schema.fields();
        // Nested messages are added after this one, so collect them first.
        String[] nestedNames = new String[fields.size()];
        for (int i = 0; i < fields.size(); i++) {
            if (fields.get(i).nested() != null) {
                String nestedName = name + "_" + fields.get(i).name();
                for (int n = 2; !taken.add(nestedName); n++) {
                    nestedName = name + "_" + fields.get(i).name() + "_" + n;
                }
                nestedNames[i] = nestedName;
            }
        }
        for (int i = 0; i < fields.size(); i++) {
            Schema.SchemaField field = fields.get(i);
            FieldDescriptorProto.Builder proto =
                    FieldDescriptorProto.newBuilder()
                            .setName(field.name())
                            .setNumber(i + 1)
                            .setLabel(
                                    field.repeated()
                                            ? FieldDescriptorProto.Label.LABEL_REPEATED
                                            : FieldDescriptorProto.Label.LABEL_OPTIONAL);
            String typeName;
            switch (field.type()) {
                case STRING -> proto.setType(FieldDescriptorProto.Type.TYPE_STRING);
                case INT32 -> proto.setType(FieldDescriptorProto.Type.TYPE_INT32);
                case INT64 -> proto.setType(FieldDescriptorProto.Type.TYPE_INT64);
                case DOUBLE -> proto.setType(FieldDescriptorProto.Type.TYPE_DOUBLE);
                case BOOLEAN -> proto.setType(FieldDescriptorProto.Type.TYPE_BOOL);
                case OBJECT ->
                        proto.setType(FieldDescriptorProto.Type.TYPE_MESSAGE)
                                .setTypeName("." + file.getPackage() + "." + nestedNames[i]);
            }
            typeName =
                    field.type() == ValueType.OBJECT ? nestedNames[i] : field.type().schemaName();
            // proto3 "optional": presence for a scalar that some object lacks (a message field
            // has presence anyway); in a descriptor, a synthetic one-field oneof.
            boolean explicitPresence = field.optional() && field.scalar();
            if (explicitPresence) {
                proto.setProto3Optional(true).setOneofIndex(message.getOneofDeclCount());
                message.addOneofDecl(OneofDescriptorProto.newBuilder().setName("_" + field.name()));
            }
            message.addField(proto);
            body.append("  ")
                    .append(field.repeated() ? "repeated " : explicitPresence ? "optional " : "")
                    .append(typeName)
                    .append(' ')
                    .append(field.name())
                    .append(" = ")
                    .append(i + 1)
                    .append(";\n");
        }
        file.addMessageType(message);
        text.append("\nmessage ").append(name).append(" {\n").append(body).append("}\n");
        for (int i = 0; i < fields.size(); i++) {
            if (nestedNames[i] != null) {
                message(nestedNames[i], fields.get(i).nested(), file, text, taken);
            }
        }
    }

    /** The {@code .proto} file's text. */
    public String text() {
        return text;
    }

    /** The list message's full name, {@code lab.datasets.<name>.ItemList}. */
    public String listMessage() {
        return packageName + "." + LIST;
    }

    /** The object message's full name, {@code lab.datasets.<name>.Item}. */
    public String itemMessage() {
        return packageName + "." + ITEM;
    }

    /** One object as its message. */
    public DynamicMessage message(Schema schema, Object[] row) {
        return message(item, schema, row);
    }

    private static DynamicMessage message(Descriptor type, Schema schema, Object[] row) {
        DynamicMessage.Builder builder = DynamicMessage.newBuilder(type);
        List<FieldDescriptor> descriptors = type.getFields();
        List<Schema.SchemaField> fields = schema.fields();
        for (int i = 0; i < row.length; i++) {
            Object value = row[i];
            if (value == null) {
                continue;
            }
            FieldDescriptor descriptor = descriptors.get(i);
            Schema.SchemaField field = fields.get(i);
            if (field.repeated()) {
                for (Object element : (Object[]) value) {
                    builder.addRepeatedField(descriptor, value(descriptor, field, element));
                }
            } else {
                builder.setField(descriptor, value(descriptor, field, value));
            }
        }
        return builder.build();
    }

    private static Object value(FieldDescriptor descriptor, Schema.SchemaField field, Object v) {
        return switch (field.type()) {
            case INT32 -> (int) (long) (Long) v;
            case OBJECT -> message(descriptor.getMessageType(), field.nested(), (Object[]) v);
            default -> v;
        };
    }
}
