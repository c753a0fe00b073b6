package lab.responsetime.core.dataset;

import com.google.protobuf.MessageLite;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import lab.responsetime.api.Book;
import lab.responsetime.api.Video;
import lab.responsetime.api.XmlDocuments;

/**
 * One of the two object types and everything the server does differently for it: its names in URLs
 * and documents, its field table (docs/method.md#datasets), its sort keys (docs/method.md,
 * computation models) and its protobuf and XML shapes.
 *
 * @param <T> the representation, {@link Book} or {@link Video}
 */
public final class ObjectKind<T> {
    public static final ObjectKind<Book> BOOKS =
            new ObjectKind<>(
                    "books",
                    "book",
                    "Books (text heavy)",
                    Book.class,
                    List.of(
                            SortKey.of("author", Comparator.comparing(Book::author)),
                            SortKey.of("description", Comparator.comparing(Book::description)),
                            SortKey.of("image", Comparator.comparing(Book::image)),
                            SortKey.of("price", (a, b) -> Float.compare(a.price(), b.price())),
                            SortKey.of("numInStock", Comparator.comparingInt(Book::numInStock)),
                            SortKey.of("type", Comparator.comparing(Book::type)),
                            SortKey.of(
                                    "onSale", (a, b) -> Boolean.compare(a.onSale(), b.onSale()))),
                    ObjectKind::bookProto,
                    XmlDocuments.Books::new,
                    SpecFields.BOOK,
                    0,
                    v ->
                            new Book(
                                    (String) v[0],
                                    (String) v[1],
                                    (String) v[2],
                                    (String) v[3],
                                    (Integer) v[4],
                                    (Float) v[5],
                                    (String) v[6],
                                    (Boolean) v[7]));

    public static final ObjectKind<Video> VIDEOS =
            new ObjectKind<>(
                    "videos",
                    "video",
                    "Videos (number heavy)",
                    Video.class,
                    List.of(
                            SortKey.of("title", Comparator.comparing(Video::title)),
                            SortKey.of("uri", Comparator.comparing(Video::uri)),
                            SortKey.of("format", Comparator.comparing(Video::format)),
                            SortKey.of("height", Comparator.comparingInt(Video::height)),
                            SortKey.of("width", Comparator.comparingInt(Video::width)),
                            SortKey.of("length", Comparator.comparingInt(Video::length)),
                            SortKey.of("views", Comparator.comparingInt(Video::views)),
                            SortKey.of(
                                    "enabled",
                                    (a, b) -> Boolean.compare(a.enabled(), b.enabled()))),
                    ObjectKind::videoProto,
                    XmlDocuments.Videos::new,
                    SpecFields.VIDEO,
                    1,
                    v ->
                            new Video(
                                    (String) v[0],
                                    (String) v[1],
                                    (String) v[2],
                                    (Integer) v[3],
                                    (Integer) v[4],
                                    (Integer) v[5],
                                    (Integer) v[6],
                                    (Boolean) v[7]));

    public static final List<ObjectKind<?>> ALL = List.of(BOOKS, VIDEOS);

    private final String plural;
    private final String singular;
    private final String label;
    private final Class<T> type;
    private final List<SortKey<T>> sortSequence;
    private final Function<T, MessageLite> toProto;
    private final Function<List<T>, Object> xmlDocument;
    private final List<Field> fields;
    private final int seedOffset;
    private final Function<Object[], T> fromValues;
    private final Schema schema;
    private final ProtoSchema protoSchema;

    private ObjectKind(
            String plural,
            String singular,
            String label,
            Class<T> type,
            List<SortKey<T>> sortSequence,
            Function<T, MessageLite> toProto,
            Function<List<T>, Object> xmlDocument,
            List<Field> fields,
            int seedOffset,
            Function<Object[], T> fromValues) {
        this(
                plural,
                singular,
                label,
                type,
                sortSequence,
                toProto,
                xmlDocument,
                fields,
                seedOffset,
                fromValues,
                null,
                null);
    }

    private ObjectKind(
            String plural,
            String singular,
            String label,
            Class<T> type,
            List<SortKey<T>> sortSequence,
            Function<T, MessageLite> toProto,
            Function<List<T>, Object> xmlDocument,
            List<Field> fields,
            int seedOffset,
            Function<Object[], T> fromValues,
            Schema schema,
            ProtoSchema protoSchema) {
        this.schema = schema;
        this.protoSchema = protoSchema;
        this.plural = plural;
        this.singular = singular;
        this.label = label;
        this.type = type;
        this.sortSequence = sortSequence;
        this.toProto = toProto;
        this.xmlDocument = xmlDocument;
        this.fields = fields;
        this.seedOffset = seedOffset;
        this.fromValues = fromValues;
    }

    /** The name in URLs, file names and XML roots: {@code books}, {@code videos}. */
    public String plural() {
        return plural;
    }

    /** The XML element of one object: {@code book}, {@code video}. */
    public String singular() {
        return singular;
    }

    /** The name a reader sees in reports and on the page. */
    public String label() {
        return label;
    }

    public Class<T> type() {
        return type;
    }

    /**
     * CM2's sequence of sorts, one per property (docs/method.md, computation models); its first key
     * is CM1's.
     */
    public List<SortKey<T>> sortSequence() {
        return sortSequence;
    }

    /**
     * The kind's field table (docs/method.md#datasets), in order: what every format writes, the
     * generator draws and the collector checks.
     */
    public List<Field> fields() {
        return fields;
    }

    /**
     * What the generator adds to the dataset's seed for this kind's own {@link java.util.Random}
     * stream: Books 0, Videos 1.
     */
    public int seedOffset() {
        return seedOffset;
    }

    /** The object holding {@code values}, one per field in table order, as the table types them. */
    public T fromValues(Object[] values) {
        return fromValues.apply(values);
    }

    /** The generated protobuf message for one object. */
    public MessageLite toProto(T object) {
        return toProto.apply(object);
    }

    /** The object Jackson serializes as this kind's XML document. */
    public Object xmlDocument(List<T> objects) {
        return xmlDocument.apply(objects);
    }

    /**
     * A dataset brought by its user (docs/datasets.md): its objects are rows of {@code schema}
     * ({@link Schema}), its name is {@code name} in URLs and the XML root, each object an {@code
     * <item>}; its sort keys are its top-level scalar fields in order, and the formats write it
     * from its schema. It has no generation rules ({@link #fields()} is empty).
     */
    public static ObjectKind<Object[]> brought(String name, Schema schema) {
        return new ObjectKind<>(
                name,
                "item",
                name,
                Object[].class,
                sortKeys(schema),
                row -> {
                    throw new UnsupportedOperationException(
                            "a brought dataset has no generated code");
                },
                rows -> {
                    throw new UnsupportedOperationException("a brought dataset has no XML class");
                },
                List.of(),
                0,
                values -> values,
                schema,
                ProtoSchema.of(name, schema));
    }

    /**
     * The schema of a dataset brought by its user, which the formats write it from; empty for Books
     * and Videos, written by their generated classes.
     */
    public Optional<Schema> schema() {
        return Optional.ofNullable(schema);
    }

    /** A brought dataset's Protobuf schema; null for Books and Videos (proto/lab.proto). */
    public ProtoSchema protoSchema() {
        return protoSchema;
    }

    /**
     * One sort per top-level scalar field, in order. A row without the value sorts first; strings
     * compare by UTF-16 code units, numbers numerically ({@code -0.0} equal to {@code 0.0}, as
     * JavaScript's {@code <} has it), {@code false} before {@code true}: the browser's rules
     * (client/sort.js).
     */
    private static List<SortKey<Object[]>> sortKeys(Schema schema) {
        List<SortKey<Object[]>> keys = new ArrayList<>();
        for (int index : schema.scalarFields()) {
            Schema.SchemaField field = schema.fields().get(index);
            Comparator<Object> values =
                    switch (field.type()) {
                        case STRING -> (a, b) -> ((String) a).compareTo((String) b);
                        case INT32, INT64 -> (a, b) -> Long.compare((Long) a, (Long) b);
                        case DOUBLE -> {
                            Comparator<Object> numbers =
                                    (a, b) -> {
                                        double x = (Double) a;
                                        double y = (Double) b;
                                        return x < y ? -1 : x > y ? 1 : 0;
                                    };
                            yield numbers;
                        }
                        case BOOLEAN -> (a, b) -> Boolean.compare((Boolean) a, (Boolean) b);
                        case OBJECT -> throw new IllegalStateException("not a scalar");
                    };
            Comparator<Object> nullsFirst = Comparator.nullsFirst(values);
            keys.add(SortKey.of(field.name(), (a, b) -> nullsFirst.compare(a[index], b[index])));
        }
        return keys;
    }

    @Override
    public String toString() {
        return plural;
    }

    private static MessageLite bookProto(Book b) {
        return lab.responsetime.api.proto.Book.newBuilder()
                .setTitle(b.title())
                .setAuthor(b.author())
                .setDescription(b.description())
                .setImage(b.image())
                .setNumInStock(b.numInStock())
                .setPrice(b.price())
                .setType(b.type())
                .setOnSale(b.onSale())
                .build();
    }

    private static MessageLite videoProto(Video v) {
        return lab.responsetime.api.proto.Video.newBuilder()
                .setUri(v.uri())
                .setTitle(v.title())
                .setFormat(v.format())
                .setHeight(v.height())
                .setWidth(v.width())
                .setLength(v.length())
                .setViews(v.views())
                .setEnabled(v.enabled())
                .build();
    }

    /** A named ascending order on one property. */
    public record SortKey<T>(String property, Comparator<T> comparator) {
        static <T> SortKey<T> of(String property, Comparator<T> comparator) {
            return new SortKey<>(property, comparator);
        }
    }
}
