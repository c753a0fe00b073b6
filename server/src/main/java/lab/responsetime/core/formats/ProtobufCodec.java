package lab.responsetime.core.formats;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.MessageLite;
import com.google.protobuf.RuntimeVersion;
import com.google.protobuf.WireFormat;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.Optional;
import lab.responsetime.api.proto.BookList;
import lab.responsetime.api.proto.VideoList;
import lab.responsetime.core.dataset.ObjectKind;
import lab.responsetime.core.dataset.ProtoSchema;
import lab.responsetime.core.dataset.Schema;
import lab.responsetime.core.ingest.InvalidBodyException;
import lab.responsetime.core.ingest.ObjectValidator;
import lab.responsetime.core.ingest.TextView;

/**
 * docs/method.md#formats Protobuf: a {@code BookList} / {@code VideoList} message
 * (proto/lab.proto).
 *
 * <p>The list is written streaming, element by element: each object is written as field 1 of the
 * list message (tag, length, message), which is byte for byte what {@code BookList.writeTo} writes,
 * without first building the whole list in memory.
 *
 * <p>It is read field by field with protobuf-java's {@link CodedInputStream} rather than parsed
 * into generated messages: the list's field 1, once per object, each a length-delimited {@code
 * Book} / {@code Video} whose fields 1–8 are checked as they are read. Strict where proto3 parsers
 * are lenient: an unknown field number, a field of the wrong wire type, a field given twice (proto3
 * would keep the last), a bool other than 0 or 1 and an int32 outside its range are refused. An
 * absent field is proto3's default value ({@code ""}, 0, false), since Protobuf cannot tell them
 * apart: it must pass its rule as such (a Book without a title does not; one without numInStock has
 * 0 in stock). A string's length is checked against its field's longest valid value before it is
 * read.
 */
final class ProtobufCodec implements FormatCodec {
    /** The list messages' one field: {@code repeated Book books = 1}. */
    private static final int LIST_FIELD_NUMBER = 1;

    /** {@link #LIST_FIELD_NUMBER}'s tag: length-delimited. */
    private static final int LIST_TAG =
            LIST_FIELD_NUMBER << 3 | WireFormat.WIRETYPE_LENGTH_DELIMITED;

    /** Bytes the decoder reads at once. */
    private static final int BUFFER_BYTES = 8 * 1024;

    /**
     * Largest buffer of the coded output stream; smaller bodies get one their size (as writeTo
     * does).
     */
    private static final int MAX_OUTPUT_BUFFER_BYTES = 16 * 1024;

    /**
     * A first guess of one object's encoded size (a Video is about 90 bytes), to size small bodies'
     * buffer.
     */
    private static final int TYPICAL_OBJECT_BYTES = 128;

    @Override
    public <T> void encode(ObjectKind<T> kind, List<T> objects, OutputStream out)
            throws IOException {
        int bufferBytes =
                (int)
                        Math.min(
                                MAX_OUTPUT_BUFFER_BYTES,
                                Math.max(64L, (long) objects.size() * TYPICAL_OBJECT_BYTES));
        CodedOutputStream coded = CodedOutputStream.newInstance(out, bufferBytes);
        if (kind.schema().isPresent()) {
            Schema schema = kind.schema().get();
            ProtoSchema proto = kind.protoSchema();
            for (Object[] row : SchemaWriter.rows(objects)) {
                coded.writeMessage(LIST_FIELD_NUMBER, proto.message(schema, row));
            }
        } else {
            for (T object : objects) {
                coded.writeMessage(LIST_FIELD_NUMBER, kind.toProto(object));
            }
        }
        coded.flush();
    }

    /**
     * protobuf-java (whose jar has no pom.properties: it states its version in {@link
     * RuntimeVersion}), and protobuf.js, which the server hands to the browser.
     */
    @Override
    public List<Library> libraries() {
        return List.of(
                Library.fromPom("protobufjs", "org.webjars.npm/protobufjs"),
                Library.stated(
                        "protobuf_java",
                        RuntimeVersion.OSS_MAJOR
                                + "."
                                + RuntimeVersion.OSS_MINOR
                                + "."
                                + RuntimeVersion.OSS_PATCH
                                + RuntimeVersion.OSS_SUFFIX));
    }

    /** protobuf-java's own way: the generated list message built whole, then written. */
    @Override
    public <T> LibraryWrite libraryWrite(ObjectKind<T> kind, List<T> objects) {
        return out -> listMessage(kind, objects).writeTo(out);
    }

    @Override
    public <T> Optional<LibraryWrite> prebuiltWrite(ObjectKind<T> kind, List<T> objects) {
        return Optional.of(listMessage(kind, objects)::writeTo);
    }

    private static <T> MessageLite listMessage(ObjectKind<T> kind, List<T> objects) {
        if (kind == ObjectKind.BOOKS) {
            BookList.Builder list = BookList.newBuilder();
            objects.forEach(b -> list.addBooks((lab.responsetime.api.proto.Book) kind.toProto(b)));
            return list.build();
        }
        VideoList.Builder list = VideoList.newBuilder();
        objects.forEach(v -> list.addVideos((lab.responsetime.api.proto.Video) kind.toProto(v)));
        return list.build();
    }

    @Override
    public Format decode(InputStream in, ObjectValidator validator) throws IOException {
        // No size limit of its own: the stream below refuses a body past ingest.maxDecodedBytes
        // (413), and no length read here allocates (a string's is checked first; an object's only
        // sets a limit).
        CodedInputStream coded = CodedInputStream.newInstance(in, BUFFER_BYTES);
        byte[] bytes = new byte[validator.longestString()];
        TextView text = new TextView();
        try {
            for (int tag; (tag = coded.readTag()) != 0; ) {
                if (tag != LIST_TAG) {
                    throw validator.listProblem(
                            "the list message has "
                                    + describeTag(tag)
                                    + "; the list of "
                                    + validator.kind().plural()
                                    + " has only field 1 ("
                                    + validator.kind().plural()
                                    + "), length-delimited");
                }
                int length = coded.readRawVarint32();
                if (length < 0) {
                    throw validator.malformed("Protobuf", "an object's length is negative");
                }
                validator.startObject();
                long end = (long) coded.getTotalBytesRead() + length;
                int outer = coded.pushLimit(length);
                readObject(coded, validator, bytes, text);
                if (coded.getTotalBytesRead() != end) {
                    throw validator.malformed("Protobuf", "the body ends inside an object");
                }
                coded.popLimit(outer);
                validator.endObject();
            }
            if (validator.count() == 0) {
                throw validator.emptyList();
            }
            return Format.PROTOBUF;
        } catch (InvalidProtocolBufferException e) {
            throw validator.malformed("Protobuf", e.getMessage());
        }
    }

    private static void readObject(
            CodedInputStream coded, ObjectValidator validator, byte[] bytes, TextView text)
            throws IOException {
        int given = 0;
        while (!coded.isAtEnd()) {
            int tag = coded.readTag();
            int number = WireFormat.getTagFieldNumber(tag);
            int wireType = WireFormat.getTagWireType(tag);
            if (number < 1 || number > validator.fields().size()) {
                throw validator.objectProblem(
                        "has "
                                + describeTag(tag)
                                + "; "
                                + validator.aKind()
                                + " has exactly the fields 1–"
                                + validator.fields().size()
                                + " ("
                                + String.join(", ", validator.fields())
                                + ")",
                        null);
            }
            int field = validator.field(number - 1);
            given |= 1 << field;
            switch (validator.type(field)) {
                case STRING -> {
                    expect(wireType, WireFormat.WIRETYPE_LENGTH_DELIMITED, field, validator);
                    int length = coded.readRawVarint32();
                    if (length < 0 || length > validator.maxLength(field)) {
                        throw validator.invalid(
                                field,
                                "a string of " + Integer.toUnsignedString(length) + " bytes");
                    }
                    for (int i = 0; i < length; i++) {
                        bytes[i] = coded.readRawByte();
                    }
                    validator.string(field, text.bytes(bytes, 0, length));
                }
                case INTEGER -> {
                    expect(wireType, WireFormat.WIRETYPE_VARINT, field, validator);
                    validator.integer(field, coded.readRawVarint64());
                }
                case DECIMAL -> {
                    expect(wireType, WireFormat.WIRETYPE_FIXED32, field, validator);
                    validator.decimal(field, coded.readFloat());
                }
                case BOOLEAN -> {
                    expect(wireType, WireFormat.WIRETYPE_VARINT, field, validator);
                    long value = coded.readRawVarint64();
                    if (value != 0 && value != 1) {
                        throw validator.invalid(
                                field, "the varint " + Long.toUnsignedString(value));
                    }
                    validator.bool(field, value == 1);
                }
            }
        }
        for (int field = 0; field < validator.fields().size(); field++) {
            if ((given & 1 << field) == 0) {
                validator.absentAsDefault(field);
            }
        }
    }

    private static void expect(int wireType, int expected, int field, ObjectValidator validator)
            throws InvalidBodyException {
        if (wireType != expected) {
            throw validator.invalid(
                    field,
                    describeWireType(wireType)
                            + " (wire type "
                            + wireType
                            + ", where "
                            + describeWireType(expected)
                            + ", wire type "
                            + expected
                            + ", belongs)");
        }
    }

    private static String describeTag(int tag) {
        return "a field number "
                + WireFormat.getTagFieldNumber(tag)
                + " of wire type "
                + WireFormat.getTagWireType(tag);
    }

    private static String describeWireType(int wireType) {
        return switch (wireType) {
            case WireFormat.WIRETYPE_VARINT -> "a varint";
            case WireFormat.WIRETYPE_FIXED64 -> "a 64-bit value";
            case WireFormat.WIRETYPE_LENGTH_DELIMITED -> "a length-delimited value";
            case WireFormat.WIRETYPE_START_GROUP, WireFormat.WIRETYPE_END_GROUP -> "a group";
            case WireFormat.WIRETYPE_FIXED32 -> "a 32-bit value";
            default -> "an unknown wire type";
        };
    }
}
