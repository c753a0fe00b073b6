package lab.responsetime.core.formats;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import lab.responsetime.core.dataset.ObjectKind;
import lab.responsetime.core.ingest.ObjectValidator;
import lab.responsetime.core.ingest.TextView;
import org.msgpack.core.MessageFormat;
import org.msgpack.core.MessageIntegerOverflowException;
import org.msgpack.core.MessagePack;
import org.msgpack.core.MessagePackException;
import org.msgpack.core.MessageUnpacker;
import org.msgpack.value.ValueType;

/**
 * MessagePack (docs/method.md, related studies): an array of maps with string keys, one per object,
 * written by jackson-dataformat-msgpack ({@link JacksonMappers#MSGPACK}) and read with
 * msgpack-core's {@link MessageUnpacker} (the library under jackson-dataformat-msgpack). The
 * unpacker rather than the Jackson parser on top of it, because that parser allocates a string's or
 * binary's declared length before reading it: a five-byte header could ask for 4 GB. Here a
 * header's length is checked first, against the field's longest valid value, and nothing invalid is
 * read.
 *
 * <p>Values are checked as carried: strings, integers, true/false; a price is a float32 or float64
 * (or an integer), which must be the float nearest to a number with at most two decimals.
 */
final class MsgpackCodec implements FormatCodec {
    /** Bytes of a key read to name it in a message; a longer key is no field of any kind. */
    private static final int MAX_KEY_BYTES = 64;

    private static final int BUFFER_BYTES = 8 * 1024;
    private static final MessagePack.UnpackerConfig CONFIG =
            new MessagePack.UnpackerConfig().withBufferSize(BUFFER_BYTES);

    @Override
    public <T> void encode(ObjectKind<T> kind, List<T> objects, OutputStream out)
            throws IOException {
        if (kind.schema().isPresent()) {
            SchemaWriter.writeList(
                    JacksonMappers.MSGPACK.getFactory().createGenerator(out),
                    kind.schema().get(),
                    SchemaWriter.rows(objects));
            return;
        }
        JacksonMappers.MSGPACK.writeValue(out, objects);
    }

    @Override
    public List<Library> libraries() {
        return List.of(
                Library.fromPom("jackson_msgpack", "org.msgpack/jackson-dataformat-msgpack"));
    }

    @Override
    public Format decode(InputStream in, ObjectValidator validator) throws IOException {
        byte[] bytes = new byte[Math.max(MAX_KEY_BYTES, validator.longestString())];
        TextView text = new TextView();
        try (MessageUnpacker unpacker = CONFIG.newUnpacker(in)) {
            if (!unpacker.hasNext() || unpacker.getNextFormat().getValueType() != ValueType.ARRAY) {
                throw validator.listProblem(
                        "the body must be a MessagePack array of "
                                + validator.kind().plural()
                                + ", got "
                                + describe(unpacker));
            }
            int objects = unpacker.unpackArrayHeader();
            if (objects == 0) {
                throw validator.emptyList();
            }
            for (int i = 0; i < objects; i++) {
                if (!unpacker.hasNext()) {
                    throw validator.malformed("MessagePack", "the body ends inside the list");
                }
                if (unpacker.getNextFormat().getValueType() != ValueType.MAP) {
                    throw validator.notAnObject(describe(unpacker));
                }
                int fields = unpacker.unpackMapHeader();
                validator.startObject();
                for (int j = 0; j < fields; j++) {
                    int field = validator.field(key(unpacker, validator, bytes, text));
                    value(unpacker, field, validator, bytes, text);
                }
                validator.endObject();
            }
            if (unpacker.hasNext()) {
                throw validator.listProblem("there is more after the end of the list");
            }
            return Format.MSGPACK;
        } catch (MessagePackException e) {
            throw validator.malformed(
                    "MessagePack",
                    e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
        }
    }

    private static CharSequence key(
            MessageUnpacker unpacker, ObjectValidator validator, byte[] bytes, TextView text)
            throws IOException {
        if (!unpacker.hasNext()) {
            throw validator.malformed("MessagePack", "the body ends inside a map");
        }
        if (unpacker.getNextFormat().getValueType() != ValueType.STRING) {
            throw validator.objectProblem(
                    "has a key that is not a string: " + describe(unpacker), null);
        }
        int length = unpacker.unpackRawStringHeader();
        if (length > MAX_KEY_BYTES) {
            throw validator.objectProblem(
                    "has an unknown field (a key of " + length + " bytes)", null);
        }
        unpacker.readPayload(bytes, 0, length);
        return text.bytes(bytes, 0, length);
    }

    private static void value(
            MessageUnpacker unpacker,
            int field,
            ObjectValidator validator,
            byte[] bytes,
            TextView text)
            throws IOException {
        if (!unpacker.hasNext()) {
            throw validator.malformed("MessagePack", "the body ends inside a map");
        }
        ValueType type = unpacker.getNextFormat().getValueType();
        switch (validator.type(field)) {
            case STRING -> {
                if (type != ValueType.STRING) {
                    throw validator.invalid(field, describe(unpacker));
                }
                int length = unpacker.unpackRawStringHeader();
                if (length > validator.maxLength(field)) {
                    throw validator.invalid(field, "a string of " + length + " bytes");
                }
                unpacker.readPayload(bytes, 0, length);
                validator.string(field, text.bytes(bytes, 0, length));
            }
            case INTEGER -> {
                if (type != ValueType.INTEGER) {
                    throw validator.invalid(field, describe(unpacker));
                }
                validator.integer(field, integer(unpacker, field, validator));
            }
            case DECIMAL -> {
                if (type == ValueType.FLOAT) {
                    validator.decimal(field, unpacker.unpackDouble());
                } else if (type == ValueType.INTEGER) {
                    validator.decimal(field, integer(unpacker, field, validator));
                } else {
                    throw validator.invalid(field, describe(unpacker));
                }
            }
            case BOOLEAN -> {
                if (type != ValueType.BOOLEAN) {
                    throw validator.invalid(field, describe(unpacker));
                }
                validator.bool(field, unpacker.unpackBoolean());
            }
        }
    }

    private static long integer(MessageUnpacker unpacker, int field, ObjectValidator validator)
            throws IOException {
        try {
            return unpacker.unpackLong();
        } catch (MessageIntegerOverflowException e) {
            throw validator.invalid(field, e.getBigInteger().toString());
        }
    }

    /** What the next value is, for messages, without reading it. */
    private static String describe(MessageUnpacker unpacker) throws IOException {
        if (!unpacker.hasNext()) {
            return "the end of the body";
        }
        MessageFormat format = unpacker.getNextFormat();
        return switch (format.getValueType()) {
            case NIL -> "nil";
            case BOOLEAN -> "a boolean";
            case INTEGER -> "an integer";
            case FLOAT -> "a float";
            case STRING -> "a string";
            case BINARY -> "binary data";
            case ARRAY -> "an array";
            case MAP -> "a map";
            case EXTENSION -> "an extension value";
        };
    }
}
