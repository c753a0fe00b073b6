package lab.responsetime.core.formats;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import lab.responsetime.core.dataset.ObjectKind;

/** SPEC §2 XML: {@code <books><book><title>…</title>…</book>…</books>}, no attributes. */
final class XmlEncoder implements Encoder {
    @Override
    public <T> void encode(ObjectKind<T> kind, List<T> objects, OutputStream out)
            throws IOException {
        JacksonMappers.XML.writeValue(out, kind.xmlDocument(objects));
    }
}
