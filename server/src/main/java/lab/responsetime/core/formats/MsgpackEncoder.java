package lab.responsetime.core.formats;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import lab.responsetime.core.dataset.ObjectKind;

/** MessagePack (SPEC §9): an array of maps, one per object, keys the field names. */
final class MsgpackEncoder implements Encoder {
    @Override
    public <T> void encode(ObjectKind<T> kind, List<T> objects, OutputStream out)
            throws IOException {
        JacksonMappers.MSGPACK.writeValue(out, objects);
    }
}
