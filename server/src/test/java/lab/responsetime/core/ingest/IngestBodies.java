package lab.responsetime.core.ingest;

import com.fasterxml.jackson.core.type.TypeReference;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import lab.responsetime.api.Book;
import lab.responsetime.core.compression.Compression;
import lab.responsetime.core.computation.Cancellation;
import lab.responsetime.core.computation.CancelledException;
import lab.responsetime.core.dataset.DatasetGenerator;
import lab.responsetime.core.dataset.ObjectKind;
import lab.responsetime.core.formats.BodyWriter;
import lab.responsetime.core.formats.Format;
import lab.responsetime.core.formats.JacksonMappers;

/**
 * Bodies to post in the tests: exactly what GET answers (the server's own body writer), or edited.
 */
public final class IngestBodies {
    public static final long SEED = 20170601L;

    private IngestBodies() {}

    /**
     * The body of {@code GET /api/<kind>?count=<count>&format=<format>&compression=<compression>}
     * (default level).
     */
    public static <T> byte[] get(
            ObjectKind<T> kind, int count, Format format, Compression compression) {
        return write(kind, DatasetGenerator.generate(kind, SEED, count), format, compression);
    }

    /** {@code objects} as GET would write them. */
    public static <T> byte[] write(
            ObjectKind<T> kind, List<T> objects, Format format, Compression compression) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            new BodyWriter(8192)
                    .write(
                            format.codec(),
                            kind,
                            objects,
                            compression,
                            compression.levels().map(Compression.Levels::defaultLevel).orElse(0),
                            new Cancellation(),
                            out,
                            soFar -> {});
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (CancelledException e) {
            throw new AssertionError(e);
        }
        return out.toByteArray();
    }

    /** {@code body} compressed as {@code compression} compresses GET answers (default level). */
    public static byte[] compress(Compression compression, byte[] body) {
        if (compression == Compression.NONE) {
            return body;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (var compressing =
                compression
                        .codec()
                        .compress(out, compression.levels().orElseThrow().defaultLevel())) {
            compressing.write(body, 0, body.length);
            compressing.finish();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /**
     * The first {@code count} generated objects as field → value maps in the method's order, to
     * edit.
     */
    public static List<Map<String, Object>> maps(ObjectKind<?> kind, int count) {
        List<Map<String, Object>> maps = new ArrayList<>();
        for (Object object : DatasetGenerator.generate(kind, SEED, count)) {
            Map<String, Object> map =
                    JacksonMappers.JSON.convertValue(
                            object, new TypeReference<LinkedHashMap<String, Object>>() {});
            if (object instanceof Book book) {
                map.put(
                        "price",
                        book.price()); // a float, as the encoders write it (the map would hold
                // a double)
            }
            maps.add(map);
        }
        return maps;
    }

    /**
     * A JSON body of Books: {@code B} is a valid book; {@code B(field:literal)} the same book with
     * the field's value written as {@code literal}; anything else is copied.
     */
    public static byte[] json(String template) {
        Map<String, Object> book = maps(ObjectKind.BOOKS, 1).get(0);
        StringBuilder body = new StringBuilder();
        try {
            for (int i = 0; i < template.length(); i++) {
                char c = template.charAt(i);
                if (c == 'B' && i + 1 < template.length() && template.charAt(i + 1) == '(') {
                    int end = template.indexOf(')', i);
                    String change = template.substring(i + 2, end);
                    String field = change.substring(0, change.indexOf(':'));
                    Map<String, Object> edited = new LinkedHashMap<>(book);
                    edited.put(field, "@@VALUE@@");
                    body.append(
                            JacksonMappers.JSON
                                    .writeValueAsString(edited)
                                    .replace(
                                            "\"@@VALUE@@\"", change.substring(field.length() + 1)));
                    i = end;
                } else if (c == 'B') {
                    body.append(JacksonMappers.JSON.writeValueAsString(book));
                } else {
                    body.append(c);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return body.toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * An XML body of Books: {@code {E}} is a valid book of elements, {@code {A}} one of attributes.
     */
    public static byte[] xml(String template) {
        Map<String, Object> book = maps(ObjectKind.BOOKS, 1).get(0);
        return template.replace("{E}", xmlBook(book, false))
                .replace("{A}", xmlBook(book, true))
                .getBytes(StandardCharsets.UTF_8);
    }

    /** One object as XML, its fields as child elements or as attributes. */
    public static String xmlBook(Map<String, Object> book, boolean attributes) {
        if (attributes) {
            return "<book "
                    + book.entrySet().stream()
                            .map(f -> f.getKey() + "=\"" + f.getValue() + "\"")
                            .collect(Collectors.joining(" "))
                    + "/>";
        }
        return "<book>"
                + book.entrySet().stream()
                        .map(f -> "<" + f.getKey() + ">" + f.getValue() + "</" + f.getKey() + ">")
                        .collect(Collectors.joining())
                + "</book>";
    }
}
