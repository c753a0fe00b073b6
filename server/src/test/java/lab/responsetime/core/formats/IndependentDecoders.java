package lab.responsetime.core.formats;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import javax.xml.parsers.DocumentBuilderFactory;
import lab.responsetime.api.Book;
import lab.responsetime.api.Video;
import lab.responsetime.api.proto.BookList;
import lab.responsetime.api.proto.VideoList;
import lab.responsetime.core.dataset.ObjectKind;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * Decoders that share no code with the encoders: Jackson's tree model for JSON (no data
 * binding), the JDK's DOM parser for XML, the generated protobuf parser for Protobuf. Each
 * checks the document's shape strictly — root, element and field names exactly as SPEC §2.
 */
public final class IndependentDecoders {
    private static final ObjectMapper TREE = new ObjectMapper();
    static final List<String> BOOK_FIELDS =
            List.of("title", "author", "description", "image", "numInStock", "price", "type", "onSale");
    static final List<String> VIDEO_FIELDS =
            List.of("uri", "title", "format", "height", "width", "length", "views", "enabled");

    private IndependentDecoders() {
    }

    public static byte[] gunzip(byte[] compressed) {
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(compressed))) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Decodes an uncompressed body of {@code format} into the kind's objects. */
    @SuppressWarnings("unchecked")
    public static <T> List<T> decode(Format format, ObjectKind<T> kind, byte[] body) throws Exception {
        return switch (format) {
            case JSON -> bind(kind, fromJson(kind, body));
            case XML -> bind(kind, fromXml(kind, body));
            case PROTOBUF -> (List<T>) (kind == ObjectKind.BOOKS ? protobufBooks(body) : protobufVideos(body));
        };
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

    private static List<Map<String, String>> fromJson(ObjectKind<?> kind, byte[] body) throws IOException {
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

    private static List<Map<String, String>> fromXml(ObjectKind<?> kind, byte[] body) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        Element root = factory.newDocumentBuilder().parse(new ByteArrayInputStream(body)).getDocumentElement();
        if (!root.getTagName().equals(kind.plural()) || root.hasAttributes()) {
            throw new AssertionError("XML root <" + root.getTagName() + ">, expected <" + kind.plural() + ">");
        }
        List<Map<String, String>> records = new ArrayList<>();
        for (Element object : children(root)) {
            if (!object.getTagName().equals(kind.singular()) || object.hasAttributes()) {
                throw new AssertionError("XML element <" + object.getTagName() + ">, expected <" + kind.singular() + ">");
            }
            Map<String, String> record = new LinkedHashMap<>();
            for (Element field : children(object)) {
                if (field.hasAttributes() || record.put(field.getTagName(), text(field)) != null) {
                    throw new AssertionError("XML field <" + field.getTagName() + "> has attributes or repeats");
                }
            }
            if (!new ArrayList<>(record.keySet()).equals(fields(kind))) {
                throw new AssertionError("XML fields " + record.keySet() + ", expected " + fields(kind));
            }
            records.add(record);
        }
        return records;
    }

    /** The child elements of {@code parent}, which may hold no text besides white space between them. */
    private static List<Element> children(Element parent) {
        List<Element> elements = new ArrayList<>();
        for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (node instanceof Element element) {
                elements.add(element);
            } else if (!node.getTextContent().isBlank()) {
                throw new AssertionError("XML <" + parent.getTagName() + "> holds text beside its elements");
            }
        }
        return elements;
    }

    private static String text(Element field) {
        for (Node node = field.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (node.getNodeType() != Node.TEXT_NODE) {
                throw new AssertionError("XML field <" + field.getTagName() + "> is not plain text");
            }
        }
        return field.getTextContent();
    }

    private static Book book(Map<String, String> r) {
        return new Book(r.get("title"), r.get("author"), r.get("description"), r.get("image"),
                Integer.parseInt(r.get("numInStock")), Float.parseFloat(r.get("price")), r.get("type"),
                bool(r.get("onSale")));
    }

    private static Video video(Map<String, String> r) {
        return new Video(r.get("uri"), r.get("title"), r.get("format"), Integer.parseInt(r.get("height")),
                Integer.parseInt(r.get("width")), Integer.parseInt(r.get("length")),
                Integer.parseInt(r.get("views")), bool(r.get("enabled")));
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
            books.add(new Book(b.getTitle(), b.getAuthor(), b.getDescription(), b.getImage(), b.getNumInStock(),
                    b.getPrice(), b.getType(), b.getOnSale()));
        }
        return books;
    }

    private static List<Video> protobufVideos(byte[] body) throws IOException {
        List<Video> videos = new ArrayList<>();
        for (lab.responsetime.api.proto.Video v : VideoList.parseFrom(body).getVideosList()) {
            videos.add(new Video(v.getUri(), v.getTitle(), v.getFormat(), v.getHeight(), v.getWidth(),
                    v.getLength(), v.getViews(), v.getEnabled()));
        }
        return videos;
    }
}
