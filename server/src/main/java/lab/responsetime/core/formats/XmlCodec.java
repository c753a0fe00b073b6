package lab.responsetime.core.formats;

import com.ctc.wstx.api.WstxInputProperties;
import com.ctc.wstx.exc.WstxLazyException;
import com.ctc.wstx.stax.WstxInputFactory;
import com.fasterxml.jackson.dataformat.xml.XmlMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import lab.responsetime.core.dataset.ObjectKind;
import lab.responsetime.core.ingest.BodyRefusedException;
import lab.responsetime.core.ingest.InvalidBodyException;
import lab.responsetime.core.ingest.ObjectValidator;
import lab.responsetime.core.ingest.Texts;

/**
 * docs/method.md#formats's XML ({@code <books><book><title>…</title>…</book>…</books>}) or XML with
 * attributes (docs/method.md, related studies: {@code <books><book title="…" …/>…</books>}), one
 * codec per shape: each writes its shape with jackson-dataformat-xml ({@link JacksonMappers#XML},
 * {@link JacksonMappers#XML_ATTRIBUTES}).
 *
 * <p>The two share {@code application/xml}, so both read either shape, with StAX — Woodstox, the
 * parser jackson-dataformat-xml brings and writes with. The document's first object decides its
 * shape: with attributes if it has any, else with child elements; every other object must have that
 * shape. Whitespace between elements and comments are allowed; attributes of the root, namespaces,
 * text outside the fields and elements inside a field are not.
 *
 * <p>A document with a DOCTYPE is refused at the DOCTYPE, before anything in it is read: DTDs are
 * off, so no entity is ever declared or expanded (no billion laughs) and no external entity or DTD
 * is ever fetched (no XXE); a reference to an undeclared entity is malformed XML. Woodstox's own
 * limits bound what one text, attribute or nesting can cost before the validator sees it.
 */
final class XmlCodec implements FormatCodec {
    /**
     * Characters of one text or attribute value, far above any valid value (the longest is 400).
     */
    private static final int MAX_TEXT_CHARS = 16 * 1024;

    /** {@code <books>}, {@code <book>}, a field, and room for the error of anything deeper. */
    private static final int MAX_DEPTH = 8;

    private static final int MAX_ATTRIBUTES = 32;

    /** Causes looked through for a refusal from below. */
    private static final int MAX_CAUSES = 8;

    private static final XMLInputFactory FACTORY = factory();

    /** Where an object's fields are. */
    enum Shape {
        /** Child elements: {@code <book><title>…</title>…</book>}. */
        ELEMENTS,
        /** Attributes: {@code <book title="…" …/>}. */
        ATTRIBUTES
    }

    private final XmlMapper mapper;
    private final Shape shape;

    /** The codec whose encoder writes {@code shape}. */
    XmlCodec(Shape shape) {
        this.shape = shape;
        this.mapper =
                shape == Shape.ATTRIBUTES ? JacksonMappers.XML_ATTRIBUTES : JacksonMappers.XML;
    }

    @Override
    public <T> void encode(ObjectKind<T> kind, List<T> objects, OutputStream out)
            throws IOException {
        if (kind.schema().isPresent()) {
            SchemaWriter.writeXml(
                    mapper.getFactory().createGenerator(out),
                    kind.plural(),
                    kind.schema().get(),
                    SchemaWriter.rows(objects),
                    shape == Shape.ATTRIBUTES);
            return;
        }
        mapper.writeValue(out, kind.xmlDocument(objects));
    }

    @Override
    public List<Library> libraries() {
        return List.of(
                Library.fromPom(
                        "jackson_xml", "com.fasterxml.jackson.dataformat/jackson-dataformat-xml"),
                Library.fromPom("woodstox", "com.fasterxml.woodstox/woodstox-core"));
    }

    @Override
    public boolean text() {
        return true;
    }

    @Override
    public String postedAs(String mediaType) {
        return mediaType + " (XML with elements or with attributes: the first object decides)";
    }

    private static XMLInputFactory factory() {
        XMLInputFactory factory = new WstxInputFactory();
        factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        factory.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, true);
        factory.setProperty(XMLInputFactory.IS_COALESCING, true);
        factory.setXMLResolver(
                (publicId, systemId, base, namespace) -> {
                    throw new XMLStreamException(
                            "external entities and DTDs are not allowed: " + systemId);
                });
        factory.setProperty(WstxInputProperties.P_MAX_TEXT_LENGTH, MAX_TEXT_CHARS);
        factory.setProperty(WstxInputProperties.P_MAX_ATTRIBUTE_SIZE, MAX_TEXT_CHARS);
        factory.setProperty(WstxInputProperties.P_MAX_ATTRIBUTES_PER_ELEMENT, MAX_ATTRIBUTES);
        factory.setProperty(WstxInputProperties.P_MAX_ELEMENT_DEPTH, MAX_DEPTH);
        return factory;
    }

    @Override
    public Format decode(InputStream in, ObjectValidator validator) throws IOException {
        XMLStreamReader reader = null;
        try {
            reader = FACTORY.createXMLStreamReader(in);
            String root = validator.kind().plural();
            String object = validator.kind().singular();
            int event = nextTag(reader, validator);
            if (event != XMLStreamConstants.START_ELEMENT || !plainElement(reader, root)) {
                throw validator.listProblem(
                        "the root element must be <" + root + ">, got " + describe(reader, event));
            }
            if (reader.getAttributeCount() > 0 || reader.getNamespaceCount() > 0) {
                throw validator.listProblem(
                        "the root element <"
                                + root
                                + "> must have no attributes and no namespaces");
            }
            Shape shape = null;
            StringBuilder text = new StringBuilder();
            while ((event = nextTag(reader, validator)) == XMLStreamConstants.START_ELEMENT) {
                if (!plainElement(reader, object)) {
                    throw validator.notAnObject(describe(reader, event));
                }
                validator.startObject();
                if (shape == null) {
                    shape = reader.getAttributeCount() > 0 ? Shape.ATTRIBUTES : Shape.ELEMENTS;
                }
                if (shape == Shape.ATTRIBUTES) {
                    readAttributes(reader, validator);
                } else {
                    readElements(reader, validator, text);
                }
                validator.endObject();
            }
            if (validator.count() == 0) {
                throw validator.emptyList();
            }
            while (reader.hasNext()) {
                reader.next(); // the epilog: Woodstox refuses all but comments, PIs and whitespace
            }
            return shape == Shape.ATTRIBUTES ? Format.XML_ATTRIBUTES : Format.XML;
        } catch (XMLStreamException e) {
            throw refusal(e, validator);
        } catch (WstxLazyException e) {
            throw refusal(e.getCause() == null ? e : e.getCause(), validator);
        } finally {
            if (reader != null) {
                try {
                    reader.close();
                } catch (XMLStreamException e) {
                    // Nothing to free beyond what the collector frees: the input stream stays open.
                }
            }
        }
    }

    /** The fields of an object of attributes: {@code <book title="…" …/>}. */
    private static void readAttributes(XMLStreamReader reader, ObjectValidator validator)
            throws XMLStreamException, IOException {
        if (reader.getNamespaceCount() > 0) {
            throw validator.objectProblem("declares a namespace; no element has one", null);
        }
        for (int i = 0; i < reader.getAttributeCount(); i++) {
            String namespace = reader.getAttributeNamespace(i);
            if (namespace != null && !namespace.isEmpty()) {
                throw validator.objectProblem(
                        "has the attribute "
                                + reader.getAttributeName(i)
                                + " in a namespace; fields have none",
                        null);
            }
            int field = validator.field(reader.getAttributeLocalName(i));
            validator.text(field, reader.getAttributeValue(i));
        }
        int event = nextTag(reader, validator);
        if (event == XMLStreamConstants.START_ELEMENT) {
            throw validator.objectProblem(
                    "has the child element <"
                            + reader.getLocalName()
                            + ">, but this document's"
                            + " objects carry their fields as attributes, as its first object does",
                    null);
        }
    }

    /** The fields of an object of child elements: {@code <book><title>…</title>…</book>}. */
    private static void readElements(
            XMLStreamReader reader, ObjectValidator validator, StringBuilder text)
            throws XMLStreamException, IOException {
        if (reader.getAttributeCount() > 0) {
            throw validator.objectProblem(
                    "has the attribute "
                            + reader.getAttributeLocalName(0)
                            + ", but this document's objects carry their fields as child elements,"
                            + " as its first object does",
                    null);
        }
        if (reader.getNamespaceCount() > 0) {
            throw validator.objectProblem("declares a namespace; no element has one", null);
        }
        int event;
        while ((event = nextTag(reader, validator)) == XMLStreamConstants.START_ELEMENT) {
            String namespace = reader.getNamespaceURI();
            if (namespace != null && !namespace.isEmpty() || reader.getNamespaceCount() > 0) {
                throw validator.objectProblem(
                        "has the element "
                                + reader.getName()
                                + " with a namespace; fields have none",
                        null);
            }
            int field = validator.field(reader.getLocalName());
            if (reader.getAttributeCount() > 0) {
                throw validator.invalid(field, "an element with attributes");
            }
            validator.text(field, readText(reader, validator, field, text));
        }
        if (event != XMLStreamConstants.END_ELEMENT) {
            throw validator.malformed("XML", "the document ends inside an object");
        }
    }

    /** A field's text, up to its end tag: only text, CDATA and comments may be inside. */
    private static CharSequence readText(
            XMLStreamReader reader, ObjectValidator validator, int field, StringBuilder text)
            throws XMLStreamException, IOException {
        text.setLength(0);
        while (true) {
            switch (reader.next()) {
                case XMLStreamConstants.CHARACTERS,
                        XMLStreamConstants.CDATA,
                        XMLStreamConstants.SPACE -> {
                    text.append(
                            reader.getTextCharacters(),
                            reader.getTextStart(),
                            reader.getTextLength());
                    if (text.length() > MAX_TEXT_CHARS) {
                        throw validator.invalid(
                                field, "a text of more than " + MAX_TEXT_CHARS + " characters");
                    }
                }
                case XMLStreamConstants.COMMENT, XMLStreamConstants.PROCESSING_INSTRUCTION -> {}
                case XMLStreamConstants.START_ELEMENT ->
                        throw validator.invalid(
                                field, "an element <" + reader.getLocalName() + ">");
                case XMLStreamConstants.END_ELEMENT -> {
                    return text;
                }
                default -> throw validator.malformed("XML", "unexpected content in a field");
            }
        }
    }

    /**
     * The next start tag, end tag or end of document, past whitespace, comments and processing
     * instructions; text there is refused, and so is a DOCTYPE, before anything in it is read.
     */
    private static int nextTag(XMLStreamReader reader, ObjectValidator validator)
            throws XMLStreamException, InvalidBodyException {
        while (true) {
            int event = reader.next();
            switch (event) {
                case XMLStreamConstants.START_ELEMENT,
                        XMLStreamConstants.END_ELEMENT,
                        XMLStreamConstants.END_DOCUMENT -> {
                    return event;
                }
                case XMLStreamConstants.COMMENT,
                        XMLStreamConstants.PROCESSING_INSTRUCTION,
                        XMLStreamConstants.SPACE -> {}
                case XMLStreamConstants.CHARACTERS, XMLStreamConstants.CDATA -> {
                    if (!reader.isWhiteSpace()) {
                        throw validator.listProblem(
                                "the document has text outside the fields: "
                                        + Texts.quote(reader.getText()));
                    }
                }
                case XMLStreamConstants.DTD ->
                        throw validator.listProblem(
                                "a DOCTYPE is not allowed: the document must have no DTD, so no"
                                        + " entity declarations and no external references");
                default ->
                        throw validator.malformed(
                                "XML", "unexpected content (StAX event " + event + ")");
            }
        }
    }

    private static boolean plainElement(XMLStreamReader reader, String name) {
        String namespace = reader.getNamespaceURI();
        return name.equals(reader.getLocalName())
                && (namespace == null || namespace.isEmpty())
                && (reader.getPrefix() == null || reader.getPrefix().isEmpty());
    }

    private static String describe(XMLStreamReader reader, int event) {
        return event == XMLStreamConstants.START_ELEMENT
                ? "the element <" + reader.getName() + ">"
                : "the end of the document";
    }

    /**
     * A refusal from below (the body's limits) as it was; anything else the parser says is
     * malformed XML.
     */
    private static IOException refusal(Throwable problem, ObjectValidator validator) {
        Throwable cause = problem;
        for (int depth = 0; cause != null && depth < MAX_CAUSES; depth++, cause = next(cause)) {
            if (cause instanceof BodyRefusedException refused) {
                return refused;
            }
        }
        String message =
                problem.getMessage() == null
                        ? problem.getClass().getSimpleName()
                        : problem.getMessage();
        return validator.malformed(
                "XML", message.replace(" {unknown-source}", "").replaceAll("\\s+", " "));
    }

    private static Throwable next(Throwable problem) {
        if (problem.getCause() != null && problem.getCause() != problem) {
            return problem.getCause();
        }
        return problem instanceof XMLStreamException stax ? stax.getNestedException() : null;
    }
}
