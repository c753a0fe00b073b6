package lab.responsetime.core.formats;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import lab.responsetime.core.dataset.ObjectKind;

/** Writes a list of objects in one interchange format, streaming, without closing the stream. */
public interface Encoder {
    <T> void encode(ObjectKind<T> kind, List<T> objects, OutputStream out) throws IOException;
}
