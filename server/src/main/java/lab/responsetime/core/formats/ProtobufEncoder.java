package lab.responsetime.core.formats;

import com.google.protobuf.CodedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import lab.responsetime.core.dataset.ObjectKind;

/**
 * SPEC §2 Protobuf: a {@code BookList} / {@code VideoList} message of the generated code.
 *
 * <p>The list is streamed element by element: each object is written as field 1 of the list
 * message (tag, length, message), which is byte for byte what {@code BookList.writeTo} writes,
 * without first building the whole list in memory.
 */
final class ProtobufEncoder implements Encoder {
    /** The list messages' one field: {@code repeated Book books = 1}. */
    private static final int LIST_FIELD_NUMBER = 1;
    private static final int BUFFER_BYTES = 16 * 1024;

    @Override
    public <T> void encode(ObjectKind<T> kind, List<T> objects, OutputStream out) throws IOException {
        CodedOutputStream coded = CodedOutputStream.newInstance(out, BUFFER_BYTES);
        for (T object : objects) {
            coded.writeMessage(LIST_FIELD_NUMBER, kind.toProto(object));
        }
        coded.flush();
    }
}
