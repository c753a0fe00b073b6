package lab.responsetime.core.formats;

import co.nstant.in.cbor.CborDecoder;
import co.nstant.in.cbor.model.DataItem;
import co.nstant.in.cbor.model.MajorType;
import co.nstant.in.cbor.model.SimpleValue;
import co.nstant.in.cbor.model.SimpleValueType;
import co.nstant.in.cbor.model.SinglePrecisionFloat;
import co.nstant.in.cbor.model.UnicodeString;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.airlift.compress.zstd.ZstdInputStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import java.util.zip.InflaterInputStream;
import javax.xml.parsers.DocumentBuilderFactory;
import lab.responsetime.api.Book;
import lab.responsetime.api.Video;
import lab.responsetime.api.proto.BookList;
import lab.responsetime.api.proto.VideoList;
import lab.responsetime.core.compression.Compression;
import lab.responsetime.core.dataset.ObjectKind;
import org.brotli.dec.BrotliInputStream;
import org.msgpack.core.MessagePack;
import org.msgpack.core.MessageUnpacker;
import org.msgpack.value.Value;
import org.msgpack.value.ValueType;
import org.w3c.dom.Element;
import org.w3c.dom.NamedNodeMap;
import org.w3c.dom.Node;

/**
 * Decoders that share no code with the encoders: Jackson's tree model for JSON (no data binding),
 * the JDK's DOM parser for both XMLs, the generated protobuf parser for Protobuf, cbor-java
 * (co.nstant.in) for CBOR and msgpack-core's unpacker for MessagePack. Each checks the document's
 * shape strictly — root, element, attribute and field names exactly as docs/method.md#formats, and
 * in the binary formats each value's type (text, integer, float32, boolean).
 *
 * <p>Decompressors that are not the server's compressing libraries, all pure Java: the JDK's {@code
 * GZIPInputStream} (RFC 1952) and {@code InflaterInputStream} (zlib, RFC 1950), Google's Brotli
 * decoder ({@code org.brotli:dec}) and aircompressor's zstd decompressor.
 */
public final class IndependentDecoders {
    private static final ObjectMapper TREE = new ObjectMapper();
    static final List<String> BOOK_FIELDS =
            List.of(
                    "title",
                    "author",
                    "description",
                    "image",
                    "numInStock",
                    "price",
                    "type",
                    "onSale");
    static final List<String> VIDEO_FIELDS =
            List.of("uri", "title", "format", "height", "width", "length", "views", "enabled");

    /** One independent decompressor per compression but NONE. */
    private static final Map<Compression, Decompressor> DECOMPRESSORS =
            new EnumMap<>(
                    Map.of(
                            Compression.GZIP, GZIPInputStream::new,
                            Compression.DEFLATE, InflaterInputStream::new,
                            Compression.BR, BrotliInputStream::new,
                            Compression.ZSTD, ZstdInputStream::new));

    /** One independent decoder per format. */
    private static final Map<Format, BodyDecoder> DECODERS = new EnumMap<>(Format.class);

    static {
        DECODERS.put(Format.JSON, (kind, body) -> bind(kind, fromJson(kind, body)));
        DECODERS.put(Format.XML, (kind, body) -> bind(kind, fromXml(kind, body)));
        DECODERS.put(
                Format.XML_ATTRIBUTES, (kind, body) -> bind(kind, fromXmlAttributes(kind, body)));
        DECODERS.put(Format.CBOR, (kind, body) -> bind(kind, fromCbor(kind, body)));
        DECODERS.put(Format.MSGPACK, (kind, body) -> bind(kind, fromMsgpack(kind, body)));
        DECODERS.put(
                Format.PROTOBUF,
                (kind, body) ->
                        kind == ObjectKind.BOOKS ? protobufBooks(body) : protobufVideos(body));
    }

    private IndependentDecoders() {}

    /** Reads an uncompressed body of one format into objects of the kind. */
    @FunctionalInterface
    private interface BodyDecoder {
        List<?> decode(ObjectKind<?> kind, byte[] body) throws Exception;
    }

    /** Reads a compressed stream. */
    @FunctionalInterface
    private interface Decompressor {
        InputStream open(InputStream compressed) throws IOException;
    }

    /** Whether {@code format} has a decoder here. */
    public static boolean decodes(Format format) {
        return DECODERS.containsKey(format);
    }

    /** Whether {@code compression} has a decompressor here (NONE needs none). */
    public static boolean decompresses(Compression compression) {
        return compression == Compression.NONE || DECOMPRESSORS.containsKey(compression);
    }

    /** The body as the format encoded it, before {@code compression}. */
    public static byte[] decompress(Compression compression, byte[] body) {
        if (compression == Compression.NONE) {
            return body;
        }
        Decompressor decompressor = DECOMPRESSORS.get(compression);
        if (decompressor == null) {
            throw new AssertionError("no independent decompressor for " + compression);
        }
        try (InputStream in = decompressor.open(new ByteArrayInputStream(body))) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Decodes an uncompressed body of {@code format} into the kind's objects. */
    @SuppressWarnings("unchecked")
    public static <T> List<T> decode(Format format, ObjectKind<T> kind, byte[] body)
            throws Exception {
        BodyDecoder decoder = DECODERS.get(format);
        if (decoder == null) {
            throw new AssertionError("no independent decoder for " + format);
        }
        return (List<T>) decoder.decode(kind, body);
    }

    @SuppressWarnings("unchecked")
    private static <T> List<T> bind(ObjectKind<T> kind, List<Map<String, String>> records) {
        List<T> objects = new ArrayList<>();
        for (Map<String, String> record : records) {
            objects.add((T) (kind == ObjectKind.BOOKS ? book(record) : video(record)));
        }
        return objects;
    }

    private static List<String> fields(ObjectKind<?> kind) {
        return kind == ObjectKind.BOOKS ? BOOK_FIELDS : VIDEO_FIELDS;
    }

    private static List<Map<String, String>> fromJson(ObjectKind<?> kind, byte[] body)
            throws IOException {
        JsonNode root = TREE.readTree(body);
        if (!root.isArray()) {
            throw new AssertionError("JSON root is not an array");
        }
        List<Map<String, String>> records = new ArrayList<>();
        for (JsonNode object : root) {
            List<String> names = new ArrayList<>();
            object.fieldNames().forEachRemaining(names::add);
            if (!names.equals(fields(kind))) {
                throw new AssertionError("JSON fields " + names + ", expected " + fields(kind));
            }
            Map<String, String> record = new LinkedHashMap<>();
            for (String name : names) {
                JsonNode value = object.get(name);
                if (value.isContainerNode() || value.isNull()) {
                    throw new AssertionError("JSON field " + name + " is not a scalar: " + value);
                }
                record.put(name, value.isTextual() ? value.textValue() : value.toString());
            }
            records.add(record);
        }
        return records;
    }

    private static List<Map<String, String>> fromXml(ObjectKind<?> kind, byte[] body)
            throws Exception {
        Element root = xmlRoot(kind, body);
        List<Map<String, String>> records = new ArrayList<>();
        for (Element object : children(root)) {
            if (!object.getTagName().equals(kind.singular()) || object.hasAttributes()) {
                throw new AssertionError(
                        "XML element <"
                                + object.getTagName()
                                + ">, expected <"
                                + kind.singular()
                                + ">");
            }
            Map<String, String> record = new LinkedHashMap<>();
            for (Element field : children(object)) {
                if (field.hasAttributes() || record.put(field.getTagName(), text(field)) != null) {
                    throw new AssertionError(
                            "XML field <" + field.getTagName() + "> has attributes or repeats");
                }
            }
            if (!new ArrayList<>(record.keySet()).equals(fields(kind))) {
                throw new AssertionError(
                        "XML fields " + record.keySet() + ", expected " + fields(kind));
            }
            records.add(record);
        }
        return records;
    }

    /** The document's root element, checked to be the kind's list element without attributes. */
    private static Element xmlRoot(ObjectKind<?> kind, byte[] body) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        Element root =
                factory.newDocumentBuilder()
                        .parse(new ByteArrayInputStream(body))
                        .getDocumentElement();
        if (!root.getTagName().equals(kind.plural()) || root.hasAttributes()) {
            throw new AssertionError(
                    "XML root <" + root.getTagName() + ">, expected <" + kind.plural() + ">");
        }
        return root;
    }

    private static List<Map<String, String>> fromXmlAttributes(ObjectKind<?> kind, byte[] body)
            throws Exception {
        Element root = xmlRoot(kind, body);
        List<Map<String, String>> records = new ArrayList<>();
        for (Element object : children(root)) {
            if (!object.getTagName().equals(kind.singular()) || object.hasChildNodes()) {
                throw new AssertionError(
                        "XML element <"
                                + object.getTagName()
                                + ">, expected an empty <"
                                + kind.singular()
                                + "/>");
            }
            NamedNodeMap attributes = object.getAttributes();
            Map<String, String> record = new LinkedHashMap<>();
            for (String name : fields(kind)) {
                if (!object.hasAttribute(name)) {
                    throw new AssertionError(
                            "XML <" + kind.singular() + "> has no attribute " + name);
                }
                record.put(name, object.getAttribute(name));
            }
            if (attributes.getLength() != record.size()) {
                throw new AssertionError(
                        "XML <"
                                + kind.singular()
                                + "> has "
                                + attributes.getLength()
                                + " attributes, expected "
                                + fields(kind));
            }
            records.add(record);
        }
        return records;
    }

    private static List<Map<String, String>> fromCbor(ObjectKind<?> kind, byte[] body)
            throws Exception {
        List<DataItem> items = new CborDecoder(new ByteArrayInputStream(body)).decode();
        if (items.size() != 1 || !(items.get(0) instanceof co.nstant.in.cbor.model.Array array)) {
            throw new AssertionError("CBOR body is not one array: " + items.size() + " items");
        }
        List<Map<String, String>> records = new ArrayList<>();
        for (DataItem item : array.getDataItems()) {
            if (item.getMajorType() == MajorType.SPECIAL && item.equals(SimpleValue.BREAK)) {
                continue; // the end of an indefinite-length array
            }
            if (!(item instanceof co.nstant.in.cbor.model.Map map)) {
                throw new AssertionError("CBOR element is not a map: " + item);
            }
            Map<String, String> record = new LinkedHashMap<>();
            List<String> names = new ArrayList<>();
            for (DataItem key : map.getKeys()) {
                if (!(key instanceof UnicodeString name)) {
                    throw new AssertionError("CBOR key is not text: " + key);
                }
                names.add(name.getString());
                record.put(name.getString(), cborValue(kind, name.getString(), map.get(key)));
            }
            if (!names.equals(fields(kind))) {
                throw new AssertionError("CBOR keys " + names + ", expected " + fields(kind));
            }
            records.add(record);
        }
        return records;
    }

    private static String cborValue(ObjectKind<?> kind, String field, DataItem value) {
        Class<?> type = fieldType(kind, field);
        if (type == String.class && value instanceof UnicodeString text) {
            return text.getString();
        } else if (type == int.class && value instanceof co.nstant.in.cbor.model.Number number) {
            return number.getValue().toString();
        } else if (type == float.class && value instanceof SinglePrecisionFloat single) {
            return Float.toString(single.getValue());
        } else if (type == boolean.class
                && value instanceof SimpleValue simple
                && (simple.getSimpleValueType() == SimpleValueType.TRUE
                        || simple.getSimpleValueType() == SimpleValueType.FALSE)) {
            return Boolean.toString(simple.getSimpleValueType() == SimpleValueType.TRUE);
        }
        throw new AssertionError(
                "CBOR "
                        + field
                        + " is "
                        + value
                        + " ("
                        + value.getClass().getSimpleName()
                        + "), expected a "
                        + type.getSimpleName());
    }

    private static List<Map<String, String>> fromMsgpack(ObjectKind<?> kind, byte[] body)
            throws IOException {
        try (MessageUnpacker unpacker = MessagePack.newDefaultUnpacker(body)) {
            Value root = unpacker.unpackValue();
            if (unpacker.hasNext() || !root.isArrayValue()) {
                throw new AssertionError("MessagePack body is not one array");
            }
            List<Map<String, String>> records = new ArrayList<>();
            for (Value item : root.asArrayValue()) {
                if (!item.isMapValue()) {
                    throw new AssertionError("MessagePack element is not a map: " + item);
                }
                Map<String, String> record = new LinkedHashMap<>();
                for (Map.Entry<Value, Value> entry : item.asMapValue().entrySet()) {
                    if (!entry.getKey().isStringValue()) {
                        throw new AssertionError(
                                "MessagePack key is not a string: " + entry.getKey());
                    }
                    String name = entry.getKey().asStringValue().asString();
                    record.put(name, msgpackValue(kind, name, entry.getValue()));
                }
                if (!new ArrayList<>(record.keySet()).equals(fields(kind))) {
                    throw new AssertionError(
                            "MessagePack keys " + record.keySet() + ", expected " + fields(kind));
                }
                records.add(record);
            }
            return records;
        }
    }

    private static String msgpackValue(ObjectKind<?> kind, String field, Value value) {
        Class<?> type = fieldType(kind, field);
        if (type == String.class && value.isStringValue()) {
            return value.asStringValue().asString();
        } else if (type == int.class && value.isIntegerValue()) {
            return Integer.toString(value.asIntegerValue().asInt());
        } else if (type == float.class
                && value.getValueType() == ValueType.FLOAT
                && isFloat32(value)) {
            return Float.toString(value.asFloatValue().toFloat());
        } else if (type == boolean.class && value.isBooleanValue()) {
            return Boolean.toString(value.asBooleanValue().getBoolean());
        }
        throw new AssertionError(
                "MessagePack "
                        + field
                        + " is "
                        + value
                        + " ("
                        + value.getValueType()
                        + "), expected a "
                        + type.getSimpleName());
    }

    /**
     * Whether a MessagePack float holds a float32 value (the tree model does not say which width
     * was sent).
     */
    private static boolean isFloat32(Value value) {
        double d = value.asFloatValue().toDouble();
        return (double) (float) d == d;
    }

    private static Class<?> fieldType(ObjectKind<?> kind, String field) {
        for (java.lang.reflect.RecordComponent component : kind.type().getRecordComponents()) {
            if (component.getName().equals(field)) {
                return component.getType();
            }
        }
        throw new AssertionError(kind + " have no field " + field);
    }

    /**
     * The child elements of {@code parent}, which may hold no text besides white space between
     * them.
     */
    private static List<Element> children(Element parent) {
        List<Element> elements = new ArrayList<>();
        for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (node instanceof Element element) {
                elements.add(element);
            } else if (!node.getTextContent().isBlank()) {
                throw new AssertionError(
                        "XML <" + parent.getTagName() + "> holds text beside its elements");
            }
        }
        return elements;
    }

    private static String text(Element field) {
        for (Node node = field.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (node.getNodeType() != Node.TEXT_NODE) {
                throw new AssertionError(
                        "XML field <" + field.getTagName() + "> is not plain text");
            }
        }
        return field.getTextContent();
    }

    private static Book book(Map<String, String> r) {
        return new Book(
                r.get("title"),
                r.get("author"),
                r.get("description"),
                r.get("image"),
                Integer.parseInt(r.get("numInStock")),
                Float.parseFloat(r.get("price")),
                r.get("type"),
                bool(r.get("onSale")));
    }

    private static Video video(Map<String, String> r) {
        return new Video(
                r.get("uri"),
                r.get("title"),
                r.get("format"),
                Integer.parseInt(r.get("height")),
                Integer.parseInt(r.get("width")),
                Integer.parseInt(r.get("length")),
                Integer.parseInt(r.get("views")),
                bool(r.get("enabled")));
    }

    private static boolean bool(String text) {
        if (!text.equals("true") && !text.equals("false")) {
            throw new AssertionError("not a boolean: " + text);
        }
        return text.equals("true");
    }

    private static List<Book> protobufBooks(byte[] body) throws IOException {
        List<Book> books = new ArrayList<>();
        for (lab.responsetime.api.proto.Book b : BookList.parseFrom(body).getBooksList()) {
            books.add(
                    new Book(
                            b.getTitle(),
                            b.getAuthor(),
                            b.getDescription(),
                            b.getImage(),
                            b.getNumInStock(),
                            b.getPrice(),
                            b.getType(),
                            b.getOnSale()));
        }
        return books;
    }

    private static List<Video> protobufVideos(byte[] body) throws IOException {
        List<Video> videos = new ArrayList<>();
        for (lab.responsetime.api.proto.Video v : VideoList.parseFrom(body).getVideosList()) {
            videos.add(
                    new Video(
                            v.getUri(),
                            v.getTitle(),
                            v.getFormat(),
                            v.getHeight(),
                            v.getWidth(),
                            v.getLength(),
                            v.getViews(),
                            v.getEnabled()));
        }
        return videos;
    }
}
