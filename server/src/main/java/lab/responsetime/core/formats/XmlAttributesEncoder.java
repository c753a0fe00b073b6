package lab.responsetime.core.formats;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import lab.responsetime.core.dataset.ObjectKind;

/** XML with attributes (SPEC §9): {@code <books><book title="…" author="…" …/>…</books>}. */
final class XmlAttributesEncoder implements Encoder {
    @Override
    public <T> void encode(ObjectKind<T> kind, List<T> objects, OutputStream out)
            throws IOException {
        JacksonMappers.XML_ATTRIBUTES.writeValue(out, kind.xmlDocument(objects));
    }
}
