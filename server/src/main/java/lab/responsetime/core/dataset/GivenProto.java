package lab.responsetime.core.dataset;

import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.OneofDescriptorProto;
import com.google.protobuf.Descriptors;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.squareup.wire.Syntax;
import com.squareup.wire.schema.Field;
import com.squareup.wire.schema.Location;
import com.squareup.wire.schema.internal.parser.EnumElement;
import com.squareup.wire.schema.internal.parser.FieldElement;
import com.squareup.wire.schema.internal.parser.MessageElement;
import com.squareup.wire.schema.internal.parser.ProtoFileElement;
import com.squareup.wire.schema.internal.parser.ProtoParser;
import com.squareup.wire.schema.internal.parser.TypeElement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A brought dataset's own {@code .proto} (docs/datasets.md#your-own-proto), used instead of the
 * inferred one: parsed by Wire's {@link ProtoParser}, built into protobuf-java descriptors (which
 * resolve its type names and check it as protoc would), and checked against the data, so that every
 * object is written and read back as it was given. A proto3 file without imports, enums, maps,
 * oneofs or groups; the object message named by the user. Each field of the data needs a field of
 * its name in the message, of a type that carries every value exactly:
 *
 * <ul>
 *   <li>a string: {@code string}; a boolean: {@code bool}; an object: a message, field by field;
 *   <li>an int32 field: any integer type; an int64 field: a 64-bit one; an unsigned type only when
 *       no value is negative;
 *   <li>a double field: {@code double}, or {@code float} when every value is a float;
 *   <li>an array: a {@code repeated} field; a field some object lacks: proto3 {@code optional} (or
 *       a message), so that it is told apart from the default.
 * </ul>
 *
 * A field of the message the data does not have must be {@code optional}, {@code repeated} or a
 * message: a plain proto3 scalar would read as its default, a value the data never had. The list of
 * objects, what a Protobuf body is, is a message appended to the text: {@code message <Item>List {
 * repeated <Item> items = 1; }} (a number appended where that name is taken).
 */
public final class GivenProto {
    private GivenProto() {}

    private static final Map<String, FieldDescriptorProto.Type> SCALARS =
            Map.ofEntries(
                    Map.entry("double", FieldDescriptorProto.Type.TYPE_DOUBLE),
                    Map.entry("float", FieldDescriptorProto.Type.TYPE_FLOAT),
                    Map.entry("int32", FieldDescriptorProto.Type.TYPE_INT32),
                    Map.entry("int64", FieldDescriptorProto.Type.TYPE_INT64),
                    Map.entry("uint32", FieldDescriptorProto.Type.TYPE_UINT32),
                    Map.entry("uint64", FieldDescriptorProto.Type.TYPE_UINT64),
                    Map.entry("sint32", FieldDescriptorProto.Type.TYPE_SINT32),
                    Map.entry("sint64", FieldDescriptorProto.Type.TYPE_SINT64),
                    Map.entry("fixed32", FieldDescriptorProto.Type.TYPE_FIXED32),
                    Map.entry("fixed64", FieldDescriptorProto.Type.TYPE_FIXED64),
                    Map.entry("sfixed32", FieldDescriptorProto.Type.TYPE_SFIXED32),
                    Map.entry("sfixed64", FieldDescriptorProto.Type.TYPE_SFIXED64),
                    Map.entry("bool", FieldDescriptorProto.Type.TYPE_BOOL),
                    Map.entry("string", FieldDescriptorProto.Type.TYPE_STRING),
                    Map.entry("bytes", FieldDescriptorProto.Type.TYPE_BYTES));

    /** The most characters of a {@code .proto} the lab reads. */
    public static final int MAX_CHARS = 256 * 1024;

    /**
     * The schema {@code text} gives {@code dataset}'s objects ({@code schema}, {@code rows}), its
     * object message {@code message} (a full name, or a name found once in the file).
     *
     * @throws DatasetRefusedException naming the first problem: of the text, or of the data in it
     */
    public static ProtoSchema of(
            String dataset, Schema schema, List<Object[]> rows, String text, String message)
            throws DatasetRefusedException {
        if (text.length() > MAX_CHARS) {
            throw refused("it has more than " + MAX_CHARS + " characters");
        }
        if (message == null || message.isBlank()) {
            throw refused("name the message of one object with it (message), e.g. message=LogLine");
        }
        ProtoFileElement parsed;
        try {
            parsed = ProtoParser.Companion.parse(Location.get(dataset + ".proto"), text);
        } catch (RuntimeException e) {
            throw refused("it does not parse: " + e.getMessage());
        }
        if (parsed.getSyntax() != Syntax.PROTO_3) {
            throw refused(
                    "it must say syntax = \"proto3\"; (proto2 has no field presence rules"
                            + " the lab can check)");
        }
        if (!parsed.getImports().isEmpty() || !parsed.getPublicImports().isEmpty()) {
            throw refused(
                    "it imports " + parsed.getImports() + "; a dataset's .proto stands alone");
        }
        if (!parsed.getExtendDeclarations().isEmpty()) {
            throw refused("it has extend declarations; a dataset's .proto has messages only");
        }
        String packageName = parsed.getPackageName();
        FileDescriptorProto.Builder file =
                FileDescriptorProto.newBuilder().setName(dataset + ".proto").setSyntax("proto3");
        if (packageName != null) {
            file.setPackage(packageName);
        }
        for (TypeElement type : parsed.getTypes()) {
            file.addMessageType(message(type, ""));
        }
        Descriptors.FileDescriptor built = build(file.build());
        Descriptor item = find(built, message);
        String listName = item.getName() + "List";
        Set<String> taken = new HashSet<>();
        built.getMessageTypes().forEach(m -> taken.add(m.getName()));
        for (int n = 2; taken.contains(listName); n++) {
            listName = item.getName() + "List" + n;
        }
        file.addMessageType(
                DescriptorProto.newBuilder()
                        .setName(listName)
                        .addField(
                                FieldDescriptorProto.newBuilder()
                                        .setName("items")
                                        .setNumber(1)
                                        .setLabel(FieldDescriptorProto.Label.LABEL_REPEATED)
                                        .setType(FieldDescriptorProto.Type.TYPE_MESSAGE)
                                        .setTypeName("." + item.getFullName())));
        built = build(file.build());
        item = find(built, item.getFullName());
        Descriptor list = built.findMessageTypeByName(listName);

        checkFields(schema, item, "");
        for (int i = 0; i < rows.size(); i++) {
            checkValues(schema, item, rows.get(i), i, "");
        }
        String withList =
                text
                        + (text.endsWith("\n") ? "" : "\n")
                        + "\n"
                        + "// The list of objects, a Protobuf body of the lab (added by the lab).\n"
                        + "message "
                        + listName
                        + " {\n  repeated ."
                        + item.getFullName()
                        + " items = 1;\n}\n";
        return ProtoSchema.given(withList, item, list);
    }

    private static DescriptorProto message(TypeElement type, String outer)
            throws DatasetRefusedException {
        String name = outer.isEmpty() ? type.getName() : outer + "." + type.getName();
        if (type instanceof EnumElement) {
            throw refused(
                    "enum "
                            + name
                            + ": enums are not supported (a dataset's values are strings, numbers,"
                            + " booleans and objects; use a string)");
        }
        if (!(type instanceof MessageElement element)) {
            throw refused(name + " is neither a message nor an enum");
        }
        if (!element.getOneOfs().isEmpty()) {
            throw refused(
                    "message " + name + " has a oneof; a dataset's fields are not alternatives");
        }
        if (!element.getGroups().isEmpty()) {
            throw refused("message " + name + " has a group; use a message field");
        }
        DescriptorProto.Builder message = DescriptorProto.newBuilder().setName(type.getName());
        for (FieldElement field : element.getFields()) {
            message.addField(field(message, field, name));
        }
        for (TypeElement nested : type.getNestedTypes()) {
            message.addNestedType(message(nested, name));
        }
        return message.build();
    }

    private static FieldDescriptorProto field(
            DescriptorProto.Builder message, FieldElement field, String messageName)
            throws DatasetRefusedException {
        String where = messageName + "." + field.getName();
        if (field.getType().startsWith("map<")) {
            throw refused(where + " is a map; a dataset's objects are messages with named fields");
        }
        FieldDescriptorProto.Builder proto =
                FieldDescriptorProto.newBuilder()
                        .setName(field.getName())
                        .setNumber(field.getTag())
                        .setLabel(FieldDescriptorProto.Label.LABEL_OPTIONAL);
        Field.Label label = field.getLabel();
        if (label == Field.Label.REPEATED) {
            proto.setLabel(FieldDescriptorProto.Label.LABEL_REPEATED);
        } else if (label == Field.Label.OPTIONAL) {
            proto.setProto3Optional(true).setOneofIndex(message.getOneofDeclCount());
            message.addOneofDecl(OneofDescriptorProto.newBuilder().setName("_" + field.getName()));
        } else if (label != null) {
            throw refused(
                    where + " is " + label.name().toLowerCase() + ", which proto3 does not have");
        }
        FieldDescriptorProto.Type scalar = SCALARS.get(field.getType());
        if (scalar != null) {
            proto.setType(scalar);
        } else {
            // A message, by the name as written: protobuf-java resolves it as protoc would.
            proto.setTypeName(field.getType());
        }
        return proto.build();
    }

    private static Descriptors.FileDescriptor build(FileDescriptorProto file)
            throws DatasetRefusedException {
        try {
            return Descriptors.FileDescriptor.buildFrom(file, new Descriptors.FileDescriptor[0]);
        } catch (Descriptors.DescriptorValidationException e) {
            throw refused(e.getMessage());
        }
    }

    /** The message named {@code name}: its full name, or a name only one message has. */
    private static Descriptor find(Descriptors.FileDescriptor file, String name)
            throws DatasetRefusedException {
        List<Descriptor> all = new ArrayList<>();
        file.getMessageTypes().forEach(m -> collect(m, all));
        List<Descriptor> matches =
                all.stream()
                        .filter(
                                m ->
                                        m.getFullName().equals(name)
                                                || m.getName().equals(name)
                                                || m.getFullName()
                                                        .equals(file.getPackage() + "." + name))
                        .toList();
        String names = all.stream().map(Descriptor::getFullName).collect(Collectors.joining(", "));
        if (matches.isEmpty()) {
            throw refused("it has no message " + name + "; it has " + names);
        }
        if (matches.size() > 1) {
            throw refused(
                    "more than one message is called "
                            + name
                            + "; give its full name ("
                            + names
                            + ")");
        }
        return matches.get(0);
    }

    private static void collect(Descriptor message, List<Descriptor> all) {
        all.add(message);
        message.getNestedTypes().forEach(n -> collect(n, all));
    }

    /**
     * Every field of the data has one in {@code message} that carries it, and the rest may be
     * absent.
     */
    private static void checkFields(Schema schema, Descriptor message, String path)
            throws DatasetRefusedException {
        Set<String> inData = new HashSet<>();
        for (Schema.SchemaField field : schema.fields()) {
            inData.add(field.name());
            String fieldPath = path.isEmpty() ? field.name() : path + "." + field.name();
            FieldDescriptor descriptor = message.findFieldByName(field.name());
            String in = " (in " + message.getFullName() + ")";
            if (descriptor == null) {
                throw refused(
                        "the data has the field "
                                + fieldPath
                                + ", which "
                                + message.getFullName()
                                + " does not have (it has "
                                + message.getFields().stream()
                                        .map(FieldDescriptor::getName)
                                        .collect(Collectors.joining(", "))
                                + ")",
                        fieldPath);
            }
            if (field.repeated() != descriptor.isRepeated()) {
                throw refused(
                        field.repeated()
                                ? "the data's "
                                        + fieldPath
                                        + " is an array, so "
                                        + descriptor.getName()
                                        + in
                                        + " must be repeated"
                                : "the data's "
                                        + fieldPath
                                        + " is not an array, so "
                                        + descriptor.getName()
                                        + in
                                        + " must not be repeated",
                        fieldPath);
            }
            if (!carries(field.type(), descriptor.getType())) {
                throw refused(
                        "the data's "
                                + fieldPath
                                + " holds "
                                + field.typeName()
                                + " values; "
                                + descriptor.getName()
                                + in
                                + " is "
                                + descriptor.getType().name().toLowerCase()
                                + ", which cannot carry them (allowed: "
                                + allowed(field.type())
                                + ")",
                        fieldPath);
            }
            if (field.optional() && !descriptor.hasPresence()) {
                throw refused(
                        "the data's "
                                + fieldPath
                                + " is absent or null in some objects, so "
                                + descriptor.getName()
                                + in
                                + " must be proto3 optional (else an absent value reads as the"
                                + " default)",
                        fieldPath);
            }
            if (field.type() == ValueType.OBJECT) {
                checkFields(field.nested(), descriptor.getMessageType(), fieldPath);
            }
        }
        for (FieldDescriptor descriptor : message.getFields()) {
            if (!inData.contains(descriptor.getName())
                    && !descriptor.isRepeated()
                    && !descriptor.hasPresence()) {
                String fieldPath =
                        path.isEmpty() ? descriptor.getName() : path + "." + descriptor.getName();
                throw refused(
                        message.getFullName()
                                + " has the field "
                                + descriptor.getName()
                                + ", which the data does not have; it must be optional, repeated or"
                                + " a message (a plain proto3 field would read as its default)",
                        fieldPath);
            }
        }
    }

    private static boolean carries(ValueType type, FieldDescriptor.Type proto) {
        return switch (type) {
            case STRING -> proto == FieldDescriptor.Type.STRING;
            case BOOLEAN -> proto == FieldDescriptor.Type.BOOL;
            case OBJECT -> proto == FieldDescriptor.Type.MESSAGE;
            case DOUBLE ->
                    proto == FieldDescriptor.Type.DOUBLE || proto == FieldDescriptor.Type.FLOAT;
            case INT64 -> wide(proto);
            case INT32 -> wide(proto) || narrow(proto);
        };
    }

    private static boolean wide(FieldDescriptor.Type proto) {
        return switch (proto) {
            case INT64, SINT64, SFIXED64, UINT64, FIXED64 -> true;
            default -> false;
        };
    }

    private static boolean narrow(FieldDescriptor.Type proto) {
        return switch (proto) {
            case INT32, SINT32, SFIXED32, UINT32, FIXED32 -> true;
            default -> false;
        };
    }

    private static String allowed(ValueType type) {
        return switch (type) {
            case STRING -> "string";
            case BOOLEAN -> "bool";
            case OBJECT -> "a message";
            case DOUBLE -> "double; float where every value is a float";
            case INT64 -> "int64, sint64, sfixed64; uint64, fixed64 where no value is negative";
            case INT32 ->
                    "int32, sint32, sfixed32 and the 64-bit ones; uint32, fixed32, uint64, fixed64"
                            + " where no value is negative";
        };
    }

    /** Values an allowed type still cannot carry: negative ones unsigned, doubles as floats. */
    private static void checkValues(
            Schema schema, Descriptor message, Object[] row, int index, String path)
            throws DatasetRefusedException {
        List<Schema.SchemaField> fields = schema.fields();
        for (int i = 0; i < row.length; i++) {
            if (row[i] == null) {
                continue;
            }
            Schema.SchemaField field = fields.get(i);
            FieldDescriptor descriptor = message.findFieldByName(field.name());
            String fieldPath = path.isEmpty() ? field.name() : path + "." + field.name();
            Object[] values = field.repeated() ? (Object[]) row[i] : new Object[] {row[i]};
            for (Object value : values) {
                if (field.type() == ValueType.OBJECT) {
                    checkValues(
                            field.nested(),
                            descriptor.getMessageType(),
                            (Object[]) value,
                            index,
                            fieldPath);
                } else {
                    checkValue(descriptor, value, index, fieldPath);
                }
            }
        }
    }

    private static void checkValue(FieldDescriptor descriptor, Object value, int index, String path)
            throws DatasetRefusedException {
        String type = descriptor.getType().name().toLowerCase();
        boolean unsigned =
                switch (descriptor.getType()) {
                    case UINT32, FIXED32, UINT64, FIXED64 -> true;
                    default -> false;
                };
        if (unsigned && (Long) value < 0) {
            throw new DatasetRefusedException(
                    "the .proto given: object "
                            + index
                            + ", field \""
                            + path
                            + "\": "
                            + value
                            + " is negative; "
                            + descriptor.getFullName()
                            + " is "
                            + type
                            + ", which has none",
                    index,
                    path);
        }
        if (descriptor.getType() == FieldDescriptor.Type.FLOAT) {
            double number = (Double) value;
            if ((double) (float) number != number) {
                throw new DatasetRefusedException(
                        "the .proto given: object "
                                + index
                                + ", field \""
                                + path
                                + "\": "
                                + number
                                + " is not a float; "
                                + descriptor.getFullName()
                                + " is float, which would change it (use double)",
                        index,
                        path);
            }
        }
    }

    private static DatasetRefusedException refused(String why) {
        return new DatasetRefusedException("the .proto given: " + why);
    }

    private static DatasetRefusedException refused(String why, String field) {
        return new DatasetRefusedException("the .proto given: " + why, null, field);
    }
}
