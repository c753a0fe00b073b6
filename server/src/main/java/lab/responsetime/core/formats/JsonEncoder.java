package lab.responsetime.core.formats;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import lab.responsetime.core.dataset.ObjectKind;

/** SPEC §2 JSON: a top-level array of objects. */
final class JsonEncoder implements Encoder {
    @Override
    public <T> void encode(ObjectKind<T> kind, List<T> objects, OutputStream out)
            throws IOException {
        JacksonMappers.JSON.writeValue(out, objects);
    }
}
