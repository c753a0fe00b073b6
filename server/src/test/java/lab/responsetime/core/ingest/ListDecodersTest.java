package lab.responsetime.core.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.CodedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import lab.responsetime.core.compression.Compression;
import lab.responsetime.core.dataset.ObjectKind;
import lab.responsetime.core.formats.Format;
import lab.responsetime.core.formats.JacksonMappers;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvFileSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One decoder per format reads every GET body back, and refuses, with the object and field named,
 * every way a body can break the rules: a value of the wrong type, out of range, null, missing,
 * unknown or given twice, a list that is not one, and bytes after it.
 */
class ListDecodersTest {
    private static final ObjectMapper JSON = JacksonMappers.JSON;
    private static final String REMOVE = "REMOVE";
    private static final String ADD = "ADD";

    @Test
    void everyFormatCanBePostedWithItsMediaType() {
        for (Format format : Format.values()) {
            assertThat(Format.forContentType(format.mediaType()))
                    .as(format.parameter())
                    .isPresent();
        }
        assertThat(Format.forContentType("application/json; charset=UTF-8")).contains(Format.JSON);
        assertThat(Format.forContentType("Application/XML;charset=\"utf-8\"")).contains(Format.XML);
        assertThat(Format.forContentType("application/cbor; charset=utf-8")).isEmpty();
        assertThat(Format.forContentType("application/json; charset=latin1")).isEmpty();
        assertThat(Format.forContentType("application/json; v=1")).isEmpty();
        assertThat(Format.forContentType("text/xml")).isEmpty();
        assertThat(Format.forContentType(null)).isEmpty();
    }

    static Stream<Arguments> getBodies() {
        List<Arguments> cells = new ArrayList<>();
        for (ObjectKind<?> kind : ObjectKind.ALL) {
            for (Format format : Format.values()) {
                for (int count : new int[] {1, 10, 1000}) {
                    cells.add(Arguments.of(kind, format, count));
                }
            }
        }
        return cells.stream();
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("getBodies")
    void readsEveryGetBodyBack(ObjectKind<?> kind, Format format, int count) throws Exception {
        ObjectValidator validator = ObjectValidator.of(kind, 1000);
        Format decodedAs =
                decode(
                        format,
                        kind,
                        IngestBodies.get(kind, count, format, Compression.NONE),
                        validator);
        assertThat(decodedAs).as("XML's shape is the document's").isEqualTo(format);
        assertThat(validator.count()).isEqualTo(count);
    }

    static Stream<Arguments> badValues() {
        List<Arguments> cells = new ArrayList<>();
        List<String[]> changes =
                List.of(
                        new String[] {"numInStock", "\"12\""},
                        new String[] {"numInStock", "12.5"},
                        new String[] {"numInStock", "1.0"},
                        new String[] {"numInStock", "null"},
                        new String[] {"numInStock", "true"},
                        new String[] {"numInStock", "[1]"},
                        new String[] {"numInStock", "{\"a\":1}"},
                        new String[] {"numInStock", "1001"},
                        new String[] {"numInStock", "-1"},
                        new String[] {"numInStock", "18446744073709551615"},
                        new String[] {"onSale", "1"},
                        new String[] {"onSale", "\"true\""},
                        new String[] {"onSale", "null"},
                        new String[] {"title", "12345678901"},
                        new String[] {"title", "null"},
                        new String[] {"title", "\"short\""},
                        new String[] {"title", "[\"abcdefghijk\"]"},
                        new String[] {"price", "\"12.5\""},
                        new String[] {"price", "12.345"},
                        new String[] {"price", "null"},
                        new String[] {"price", "true"},
                        new String[] {"price", "2000.01"},
                        new String[] {"type", "\"ebook\""},
                        new String[] {"title", REMOVE},
                        new String[] {"onSale", REMOVE},
                        new String[] {"color", ADD});
        for (Format format : List.of(Format.JSON, Format.CBOR, Format.MSGPACK)) {
            for (String[] change : changes) {
                cells.add(Arguments.of(format, change[0], change[1]));
            }
        }
        return cells.stream();
    }

    /**
     * The second object of a list of two gets one bad field; the refusal names object 1 and the
     * field.
     */
    @ParameterizedTest(name = "{0} {1} = {2}")
    @MethodSource("badValues")
    void refusesEveryBadValueNamingItsObjectAndField(Format format, String field, String change)
            throws Exception {
        List<Map<String, Object>> books = IngestBodies.maps(ObjectKind.BOOKS, 2);
        if (change.equals(REMOVE)) {
            books.get(1).remove(field);
        } else if (change.equals(ADD)) {
            books.get(1).put(field, "red");
        } else {
            books.get(1).put(field, JSON.readTree(change));
        }
        byte[] body = mapper(format).writeValueAsBytes(books);
        AbstractThrowableAssert<?, ?> refusal =
                assertRefused(format, ObjectKind.BOOKS, body).hasMessageStartingWith("books[1]");
        InvalidBodyException invalid =
                (InvalidBodyException) catchRefusal(format, ObjectKind.BOOKS, body);
        assertThat(invalid.object()).hasValue(1);
        if (change.equals(ADD)) {
            refusal.hasMessageContaining("has an unknown field \"color\"");
            assertThat(invalid.field()).isEmpty();
        } else {
            assertThat(invalid.field()).contains(field);
            refusal.hasMessageContaining(
                    change.equals(REMOVE) ? " has no " + field : "books[1]." + field + " must be ");
        }
    }

    @ParameterizedTest(name = "{0} → {1}")
    @CsvFileSource(
            resources = "/cases/ListDecodersTest.refusesJsonWithTheFirstProblem.csv",
            delimiter = '|',
            quoteCharacter = '`')
    void refusesJsonWithTheFirstProblem(String template, String message) throws Exception {
        byte[] body = IngestBodies.json(template);
        assertRefused(Format.JSON, ObjectKind.BOOKS, body).hasMessageStartingWith(message);
    }

    @Test
    void refusesAJsonStringLongerThanAnyRuleWithoutBufferingIt() throws Exception {
        byte[] body = IngestBodies.json("[B, B(description:\"" + "x".repeat(1 << 20) + "\")]");
        assertRefused(Format.JSON, ObjectKind.BOOKS, body)
                .hasMessageContaining("String value length")
                .hasMessageContaining("exceeds the maximum allowed");
    }

    @Test
    void refusesDuplicateKeysInTheBinaryFormats() throws Exception {
        for (Format format : List.of(Format.CBOR, Format.MSGPACK)) {
            Map<String, Object> book = IngestBodies.maps(ObjectKind.BOOKS, 1).get(0);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try (JsonGenerator generator = mapper(format).getFactory().createGenerator(out)) {
                generator.writeStartArray();
                generator.writeStartObject();
                generator.writeStringField("title", (String) book.get("title"));
                for (Map.Entry<String, Object> field : book.entrySet()) {
                    generator.writeFieldName(field.getKey());
                    mapper(format).writeValue(generator, field.getValue());
                }
                generator.writeEndObject();
                generator.writeEndArray();
            }
            assertRefused(format, ObjectKind.BOOKS, out.toByteArray())
                    .hasMessage("books[0].title is given twice; give each field once");
        }
    }

    @Test
    void refusesWhatCborCanSayButTheEncoderNeverWrites() throws Exception {
        List<Map<String, Object>> books = IngestBodies.maps(ObjectKind.BOOKS, 1);
        books.get(0).put("title", "abcdefghijk".getBytes(StandardCharsets.US_ASCII));
        assertRefused(Format.CBOR, ObjectKind.BOOKS, JacksonMappers.CBOR.writeValueAsBytes(books))
                .hasMessageEndingWith("got a byte string");
        byte[] tagged =
                JacksonMappers.CBOR.writeValueAsBytes(IngestBodies.maps(ObjectKind.BOOKS, 1));
        // tag 55799, self-described CBOR: 0xd9 and the tag number in two bytes
        byte[] withTag = concat(new byte[] {(byte) 0xd9, (byte) 0xd9, (byte) 0xf7}, tagged);
        assertRefused(Format.CBOR, ObjectKind.BOOKS, withTag)
                .hasMessageContaining("got a value with CBOR tag 55799");
        assertRefused(Format.CBOR, ObjectKind.BOOKS, concat(tagged, new byte[] {0x01}))
                .hasMessageStartingWith("there is more after the end of the list");
    }

    @Test
    void refusesWhatMessagePackCanSayButTheEncoderNeverWrites() throws Exception {
        byte[] valid =
                JacksonMappers.MSGPACK.writeValueAsBytes(IngestBodies.maps(ObjectKind.BOOKS, 1));
        assertRefused(Format.MSGPACK, ObjectKind.BOOKS, concat(valid, new byte[] {(byte) 0xc0}))
                .hasMessage("there is more after the end of the list (after books[0])");
        byte[] twoPromised = valid.clone();
        twoPromised[0] = (byte) 0x92; // fixarray of 2, one given
        assertRefused(Format.MSGPACK, ObjectKind.BOOKS, twoPromised)
                .hasMessageContaining("the body ends inside the list");
        // {"title": str32 of 2 GB declared}: refused from its header, nothing allocated or read
        byte[] huge = {
            (byte) 0x91,
            (byte) 0x81,
            (byte) 0xa5,
            't',
            'i',
            't',
            'l',
            'e',
            (byte) 0xdb,
            0x7f,
            (byte) 0xff,
            (byte) 0xff,
            (byte) 0xff
        };
        assertRefused(Format.MSGPACK, ObjectKind.BOOKS, huge)
                .hasMessageStartingWith("books[0].title must be a string of 10–30 characters")
                .hasMessageEndingWith("got a string of 2147483647 bytes");
        byte[] intKey = {(byte) 0x91, (byte) 0x81, 0x01, 0x02};
        assertRefused(Format.MSGPACK, ObjectKind.BOOKS, intKey)
                .hasMessage("books[0] has a key that is not a string: an integer");
        List<Map<String, Object>> books = IngestBodies.maps(ObjectKind.BOOKS, 1);
        books.get(0).put("title", "abcdefghijk".getBytes(StandardCharsets.US_ASCII));
        assertRefused(
                        Format.MSGPACK,
                        ObjectKind.BOOKS,
                        JacksonMappers.MSGPACK.writeValueAsBytes(books))
                .hasMessageEndingWith("got binary data");
        assertRefused(Format.MSGPACK, ObjectKind.BOOKS, new byte[] {(byte) 0xc1})
                .hasMessageStartingWith("the body is not valid MessagePack");
    }

    @Test
    void refusesProtobufThatBreaksTheSchemaOrTheRules() throws Exception {
        lab.responsetime.api.proto.Book valid =
                (lab.responsetime.api.proto.Book)
                        ObjectKind.BOOKS.toProto(
                                lab.responsetime.core.dataset.DatasetGenerator.books(
                                                IngestBodies.SEED, 1)
                                        .get(0));
        byte[] validBook = valid.toByteArray();

        assertRefused(
                        Format.PROTOBUF,
                        ObjectKind.BOOKS,
                        list(validBook, concat(validBook, varintField(9, 1))))
                .hasMessageStartingWith(
                        "books[1] has a field number 9 of wire type 0; a book has exactly the"
                                + " fields 1–8");
        assertRefused(
                        Format.PROTOBUF,
                        ObjectKind.BOOKS,
                        list(
                                validBook,
                                concat(
                                        valid.toBuilder().clearNumInStock().build().toByteArray(),
                                        stringField(5, "12"))))
                .hasMessage(
                        "books[1].numInStock must be an integer from 0 to 1000, got a"
                            + " length-delimited value (wire type 2, where a varint, wire type 0,"
                            + " belongs)");
        assertRefused(
                        Format.PROTOBUF,
                        ObjectKind.BOOKS,
                        list(validBook, concat(validBook, stringField(1, "abcdefghijk"))))
                .hasMessage("books[1].title is given twice; give each field once");
        assertRefused(
                        Format.PROTOBUF,
                        ObjectKind.BOOKS,
                        list(validBook, valid.toBuilder().clearTitle().build().toByteArray()))
                .hasMessageStartingWith(
                        "books[1].title must be a string of 10–30 characters from 0-9, A-Z, a-z,"
                                + " got nothing");
        assertRefused(
                        Format.PROTOBUF,
                        ObjectKind.BOOKS,
                        list(validBook, valid.toBuilder().setNumInStock(-1).build().toByteArray()))
                .hasMessage("books[1].numInStock must be an integer from 0 to 1000, got -1");
        assertRefused(
                        Format.PROTOBUF,
                        ObjectKind.BOOKS,
                        list(
                                validBook,
                                concat(
                                        valid.toBuilder().clearOnSale().build().toByteArray(),
                                        varintField(8, 2))))
                .hasMessage("books[1].onSale must be a boolean (true or false), got the varint 2");
        assertRefused(
                        Format.PROTOBUF,
                        ObjectKind.BOOKS,
                        list(validBook, valid.toBuilder().setPrice(12.345f).build().toByteArray()))
                .hasMessage(
                        "books[1].price must be a number from 0 to 2000 with at most 2 decimals,"
                                + " got 12.345");
        // description declared 100,000 bytes long: refused from its length, nothing read
        ByteArrayOutputStream declared = new ByteArrayOutputStream();
        CodedOutputStream out = CodedOutputStream.newInstance(declared);
        out.writeTag(3, 2);
        out.writeUInt32NoTag(100_000);
        out.flush();
        assertRefused(Format.PROTOBUF, ObjectKind.BOOKS, list(validBook, declared.toByteArray()))
                .hasMessageEndingWith("got a string of 100000 bytes");
        byte[] otherListField = concat(list(validBook), new byte[] {0x12, 0x00});
        assertRefused(Format.PROTOBUF, ObjectKind.BOOKS, otherListField)
                .hasMessageStartingWith("the list message has a field number 2 of wire type 2");
        byte[] truncated = list(validBook, validBook);
        assertRefused(
                        Format.PROTOBUF,
                        ObjectKind.BOOKS,
                        Arrays.copyOf(truncated, truncated.length - 3))
                .hasMessageStartingWith("the body is not valid Protobuf")
                .hasMessageContaining("(in books[1])");
        assertRefused(Format.PROTOBUF, ObjectKind.BOOKS, new byte[0])
                .hasMessage("the list is empty; send at least one book");
    }

    @ParameterizedTest(name = "{0} → {1}")
    @CsvFileSource(
            resources = "/cases/ListDecodersTest.refusesXmlWithTheFirstProblem.csv",
            delimiter = '|',
            quoteCharacter = '`')
    void refusesXmlWithTheFirstProblem(String template, String message) throws Exception {
        assertRefused(Format.XML, ObjectKind.BOOKS, IngestBodies.xml(template))
                .hasMessageStartingWith(message);
    }

    @Test
    void readsXmlWithWhitespaceCommentsAndEscapesAsXml() throws Exception {
        Map<String, Object> book = IngestBodies.maps(ObjectKind.BOOKS, 1).get(0);
        String title = (String) book.get("title");
        String elements =
                "<?xml version='1.0' encoding='UTF-8'?>\n<!-- posted -->\n<books>\n  "
                        + IngestBodies.xmlBook(book, false)
                                .replace(
                                        "<title>" + title,
                                        "<title><![CDATA["
                                                + title.substring(0, 3)
                                                + "]]>&#"
                                                + (int) title.charAt(3)
                                                + ";"
                                                + title.substring(4))
                        + "\n  <!-- one -->\n</books>\n";
        ObjectValidator validator = ObjectValidator.of(ObjectKind.BOOKS, 10);
        assertThat(
                        decode(
                                Format.XML,
                                ObjectKind.BOOKS,
                                elements.getBytes(StandardCharsets.UTF_8),
                                validator))
                .isEqualTo(Format.XML);
        String attributes =
                "<books>\n"
                        + IngestBodies.xmlBook(book, true)
                        + "\n"
                        + IngestBodies.xmlBook(book, true).replace("/>", "> </book>")
                        + "</books>";
        assertThat(
                        decode(
                                Format.XML,
                                ObjectKind.BOOKS,
                                attributes.getBytes(StandardCharsets.UTF_8),
                                ObjectValidator.of(ObjectKind.BOOKS, 10)))
                .isEqualTo(Format.XML_ATTRIBUTES);
    }

    @ParameterizedTest
    @EnumSource(Format.class)
    void refusesTheOtherKindsObjects(Format format) throws Exception {
        byte[] videos = IngestBodies.get(ObjectKind.VIDEOS, 2, format, Compression.NONE);
        assertRefused(format, ObjectKind.BOOKS, videos)
                .hasMessageStartingWith(
                        format == Format.XML || format == Format.XML_ATTRIBUTES
                                ? "the root element must be <books>, got the element <videos>"
                                : "books[0]");
    }

    // Helpers.

    private static Format decode(
            Format format, ObjectKind<?> kind, byte[] body, ObjectValidator validator)
            throws IOException {
        return Format.forContentType(format.mediaType())
                .orElseThrow()
                .codec()
                .decode(new ByteArrayInputStream(body), validator);
    }

    private static Exception catchRefusal(Format format, ObjectKind<?> kind, byte[] body) {
        try {
            decode(format, kind, body, ObjectValidator.of(kind, 1000));
        } catch (Exception e) {
            return e;
        }
        throw new AssertionError("not refused: " + new String(body, StandardCharsets.UTF_8));
    }

    private static AbstractThrowableAssert<?, ?> assertRefused(
            Format format, ObjectKind<?> kind, byte[] body) {
        return assertThat(catchRefusal(format, kind, body))
                .isInstanceOf(InvalidBodyException.class);
    }

    private static ObjectMapper mapper(Format format) {
        return switch (format) {
            case JSON -> JacksonMappers.JSON;
            case CBOR -> JacksonMappers.CBOR;
            case MSGPACK -> JacksonMappers.MSGPACK;
            default -> throw new IllegalArgumentException(format.parameter());
        };
    }

    private static byte[] list(byte[]... objects) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        CodedOutputStream out = CodedOutputStream.newInstance(bytes);
        for (byte[] object : objects) {
            out.writeByteArray(1, object);
        }
        out.flush();
        return bytes.toByteArray();
    }

    private static byte[] varintField(int number, long value) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        CodedOutputStream out = CodedOutputStream.newInstance(bytes);
        out.writeUInt64(number, value);
        out.flush();
        return bytes.toByteArray();
    }

    private static byte[] stringField(int number, String value) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        CodedOutputStream out = CodedOutputStream.newInstance(bytes);
        out.writeString(number, value);
        out.flush();
        return bytes.toByteArray();
    }

    static byte[] concat(byte[] a, byte[] b) {
        byte[] both = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        return both;
    }
}
