package lab.responsetime.core.formats;

import com.google.protobuf.CodedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import lab.responsetime.core.dataset.ObjectKind;

/**
 * SPEC §2 Protobuf: a {@code BookList} / {@code VideoList} message of the generated code.
 *
 * <p>The list is streamed element by element: each object is written as field 1 of the list message
 * (tag, length, message), which is byte for byte what {@code BookList.writeTo} writes, without
 * first building the whole list in memory.
 */
final class ProtobufEncoder implements Encoder {
    /** The list messages' one field: {@code repeated Book books = 1}. */
    private static final int LIST_FIELD_NUMBER = 1;

    /** Largest buffer of the coded stream; smaller bodies get one their size (as writeTo does). */
    private static final int MAX_BUFFER_BYTES = 16 * 1024;

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
                                MAX_BUFFER_BYTES,
                                Math.max(64L, (long) objects.size() * TYPICAL_OBJECT_BYTES));
        CodedOutputStream coded = CodedOutputStream.newInstance(out, bufferBytes);
        for (T object : objects) {
            coded.writeMessage(LIST_FIELD_NUMBER, kind.toProto(object));
        }
        coded.flush();
    }
}
